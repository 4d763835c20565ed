import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { Transaction } from '../../src/provider/schemas/transaction.js';
import { walletSrn } from '../../src/provider/srn.js';
import { fromCarried } from '../../workflows/wallet/carried-ledger.js';
import { type LedgerStateV2 } from '../../workflows/wallet/legacy-carried-ledger.js';
import { balances, emptyLedger, LIMITS, record } from '../../workflows/wallet/ledger.js';
import { findDrift } from '../../workflows/wallet/drift.js';

// The ledger counts money exactly: sums of decimals with up to 18 places (wei), and a
// reconciliation with no tolerance.

const WALLET_ID = 'WA_EXACT';
const SRN = walletSrn(WALLET_ID);
const tx = (id: string, status: string, amount: string, extra: Partial<Transaction> = {}): Transaction => ({
  id,
  createdAt: 1_700_000_000_000,
  source: 'ethereum:EXTERNAL',
  dest: SRN,
  currency: 'ETH',
  amount,
  status,
  metadata: {},
  tags: [],
  ...extra,
});
const outgoing = { source: SRN, dest: 'ethereum:0xabc' };

/** Independent of src/decimal.ts: a decimal string as integer units of 1e-18, by string surgery. */
const wei = (text: string): bigint => {
  const negative = text.startsWith('-');
  const [whole, fraction = ''] = text.replace(/^-/, '').split('.');
  const units = BigInt(whole! + fraction.padEnd(18, '0'));
  return negative ? -units : units;
};

/** A deterministic generator (an LCG), so that a failure is reproduced by the same seed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

/** An amount with 0 to 18 decimals, up to 1e15 / 10,000 so that 10,000 of them stay within 1e15. */
function amountFrom(next: () => number): string {
  const decimals = Math.floor(next() * 19);
  const whole = BigInt(Math.floor(next() * 1e11));
  let fraction = '';
  for (let i = 0; i < decimals; i++) fraction += Math.floor(next() * 10);
  return decimals > 0 ? `${whole}.${fraction}` : `${whole}`;
}

describe('ledger: exact sums', () => {
  it('10,000 random deposits, reversals and payouts with 0 to 18 decimals sum exactly', () => {
    const next = random(20_240_601);
    const ledger = emptyLedger(WALLET_ID);
    let expected = 0n;
    const reversible: Array<{ id: string; amount: string }> = [];
    for (let i = 0; i < 10_000; i++) {
      const amount = amountFrom(next);
      const roll = next();
      const id = `TR_R${i}`;
      if (roll < 0.6 || reversible.length === 0) {
        record(ledger, tx(id, 'PENDING', amount), 'callback');
        record(ledger, tx(id, 'CONFIRMED', amount), 'callback');
        reversible.push({ id, amount });
        expected += wei(amount);
      } else if (roll < 0.8) {
        // A confirmed deposit reversed, often long after it left the recent entries.
        const [reversed] = reversible.splice(Math.floor(next() * reversible.length), 1);
        record(ledger, tx(reversed!.id, 'REVERSED', reversed!.amount), 'poll');
        expected -= wei(reversed!.amount);
      } else {
        record(ledger, tx(id, 'CONFIRMED', amount, outgoing), 'callback');
        expected -= wei(amount);
      }
    }
    const confirmed = balances(ledger).ETH!.confirmed;
    assert.equal(wei(confirmed), expected);
    assert.equal(balances(ledger).ETH!.pending, '0');
    assert.ok(Object.keys(ledger.settled).length > 7_000, 'most of them were evicted to settled records');
    assert.ok(wei(confirmed) < 10n ** 33n, 'within 1e15');
  });

  it('five deposits that floating point summed to 94183607.36999997 reconcile with no drift', () => {
    const deposits = ['29343456.02', '19973248.24', '28686517.47', '11867922.54', '4312463.10'];
    assert.notEqual(
      Math.round(deposits.reduce((sum, d) => sum + Number(d), 0) * 1e10) / 1e10,
      94183607.37,
      'the old sum',
    );
    const ledger = emptyLedger(WALLET_ID);
    deposits.forEach((amount, i) =>
      record(ledger, tx(`TR_F${i}`, 'CONFIRMED', amount, { currency: 'USD' }), 'callback'),
    );
    assert.equal(balances(ledger).USD!.confirmed, '94183607.37');
    assert.deepEqual(findDrift(balances(ledger), { USD: '94183607.37' }), []);
  });

  it('an ether amount keeps its wei; one wei of difference is drift', () => {
    const ledger = emptyLedger(WALLET_ID);
    record(ledger, tx('TR_W1', 'CONFIRMED', '1.000000000000000001'), 'callback');
    assert.equal(balances(ledger).ETH!.confirmed, '1.000000000000000001');
    assert.deepEqual(findDrift(balances(ledger), { ETH: '1.000000000000000001' }), []);
    assert.deepEqual(findDrift(balances(ledger), { ETH: '1' }), [
      { currency: 'ETH', ledger: '1.000000000000000001', provider: '1' },
    ]);
    assert.equal(findDrift(balances(ledger), { ETH: '1.000000000000000002' }).length, 1);
  });
});

describe('ledger: in any order, with repeats, the balance is the sum of the distinct settled transactions', () => {
  const STATUSES = ['PENDING', 'CONFIRMED', 'REVERSED', 'FAILED'] as const;
  const rank = (status: string) => (status === 'PENDING' ? 0 : status === 'CONFIRMED' ? 2 : 3);
  const amount = fc
    .tuple(fc.bigInt({ min: 0n, max: 10n ** 15n }), fc.integer({ min: 0, max: 18 }))
    .map(([units, scale]) => {
      const digits = units.toString().padStart(scale + 1, '0');
      return scale > 0 ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits;
    });
  const transaction = fc.record({
    amount,
    outgoing: fc.boolean(),
    statuses: fc.subarray([...STATUSES], { minLength: 1 }),
  });

  it('holds for random operations (property)', () => {
    const saved = LIMITS.recentEntries;
    // A small window of recent entries, so that eviction, settled records and late reversals all happen.
    LIMITS.recentEntries = 4;
    try {
      fc.assert(
        fc.property(
          fc.array(transaction, { minLength: 1, maxLength: 30 }),
          fc.infiniteStream(fc.nat()),
          fc.nat(3),
          (txs, shuffle, repeats) => {
            // Every notice of every transaction, some more than once, in a random order.
            const notices = txs.flatMap((t, i) =>
              t.statuses.flatMap((status) =>
                Array.from({ length: 1 + ((i + repeats) % 3 === 0 ? repeats : 0) }, () => ({ i, status })),
              ),
            );
            const order = shuffle.take(notices.length);
            const shuffled = notices
              .map((notice) => ({ notice, key: order.next().value as number }))
              .sort((a, b) => a.key - b.key || 0)
              .map(({ notice }) => notice);
            const ledger = emptyLedger(WALLET_ID);
            for (const { i, status } of shuffled) {
              const t = txs[i]!;
              record(ledger, tx(`TR_P${i}`, status, t.amount, t.outgoing ? outgoing : {}), i % 2 ? 'poll' : 'callback');
            }
            // The furthest status seen is where each transaction ends: counted when that is CONFIRMED.
            let expected = 0n;
            let pending = 0n;
            txs.forEach((t) => {
              const last = [...t.statuses].sort((a, b) => rank(b) - rank(a))[0]!;
              const signed = t.outgoing ? -wei(t.amount) : wei(t.amount);
              if (last === 'CONFIRMED') expected += signed;
              if (last === 'PENDING') pending += signed;
            });
            const balance = balances(ledger).ETH ?? { confirmed: '0', pending: '0' };
            assert.equal(wei(balance.confirmed), expected);
            assert.equal(wei(balance.pending), pending);
            // And the same after a continue-as-new.
            const carried = fromCarried(JSON.parse(JSON.stringify(ledger)));
            assert.equal(wei(balances(carried).ETH?.confirmed ?? '0'), expected);
          },
        ),
        { numRuns: 300 },
      );
    } finally {
      LIMITS.recentEntries = saved;
    }
  });
});

describe('ledger: carried from before exact amounts', () => {
  const v2: LedgerStateV2 = {
    version: 2,
    walletId: WALLET_ID,
    entries: {
      TR_E: {
        id: 'TR_E',
        currency: 'ETH',
        amount: 0.1,
        status: 'CONFIRMED',
        kind: 'deposit',
        source: 'ethereum:X',
        createdAt: 1,
        firstSeenVia: 'callback',
      },
    },
    order: ['TR_E'],
    settled: { TR_S: ['BTC', 2.5, 'CONFIRMED', 1], TR_U: ['USD', 19.99, 'CONFIRMED', 1] },
    horizon: 0,
    settledTotals: { BTC: 0.30000000000000004, USD: 0 },
    stats: { callbacks: 1, duplicates: 0, stale: 0, polls: 0, recoveredByPoll: 0, expired: 0, rejected: 0 },
  };

  it('reads amounts exactly where it can and says the floating-point sums are approximate', () => {
    const ledger = fromCarried(structuredClone(v2));
    assert.equal(ledger.version, 3);
    assert.equal(ledger.entries.TR_E!.amount, '0.1', 'one amount from JSON: its digits');
    assert.deepEqual(ledger.settled.TR_S, ['BTC', '2.5', 'CONFIRMED', 1]);
    assert.deepEqual(ledger.approximate, ['BTC'], 'a binary sum cannot be read back exactly; a zero total can');
    assert.deepEqual(balances(ledger).BTC, { confirmed: '0.30000000000000004', pending: '0', approximate: true });
    assert.deepEqual(balances(ledger).ETH, { confirmed: '0.1', pending: '0' });
    // A reversal of a record carried with a number amount is taken back exactly.
    record(ledger, tx('TR_U', 'REVERSED', '19.99', { currency: 'USD' }), 'callback');
    assert.equal(balances(ledger).USD!.confirmed, '-19.99');
    // Said approximate still after the next continue-as-new.
    assert.deepEqual(fromCarried(JSON.parse(JSON.stringify(ledger))).approximate, ['BTC']);
  });

  it('an observation recorded with a number amount (a signal or poll before exact amounts) is counted exactly', () => {
    const ledger = emptyLedger(WALLET_ID);
    record(ledger, { ...tx('TR_N1', 'CONFIRMED', '0'), amount: 0.1 as unknown as string }, 'callback');
    record(ledger, { ...tx('TR_N2', 'CONFIRMED', '0'), amount: 0.2 as unknown as string }, 'poll');
    assert.equal(balances(ledger).ETH!.confirmed, '0.3');
  });
});
