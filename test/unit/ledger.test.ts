import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Transaction } from '../../src/provider/schemas/transaction.js';
import { fromCarried } from '../../workflows/wallet/carried-ledger.js';
import { type LedgerStateV1, recordWithFirstShape } from '../../workflows/wallet/legacy-carried-ledger.js';
import { balances, classify, emptyLedger, LIMITS, recent, record } from '../../workflows/wallet/ledger.js';
import { walletSrn } from '../../src/provider/srn.js';

const WALLET_ID = 'WA_LEDGER';
const tx = (
  id: string,
  status: string,
  amount: string | number = 1,
  extra: Partial<Transaction> = {},
): Transaction => ({
  id,
  createdAt: 1,
  source: 'bitcoin:EXTERNAL',
  dest: walletSrn(WALLET_ID),
  currency: 'BTC',
  amount: String(amount),
  status,
  metadata: {},
  tags: [],
  ...extra,
});

describe('ledger: each transaction counts once', () => {
  it('pending then confirmed moves the amount from pending to confirmed', () => {
    const ledger = emptyLedger(WALLET_ID);
    assert.equal(record(ledger, tx('TR_1', 'PENDING', 2), 'callback'), 'new');
    assert.deepEqual(balances(ledger).BTC, { confirmed: '0', pending: '2' });
    assert.equal(record(ledger, tx('TR_1', 'CONFIRMED', 2), 'callback'), 'advanced');
    assert.deepEqual(balances(ledger).BTC, { confirmed: '2', pending: '0' });
  });

  it('repeats are duplicates; a pending notice after confirmation is stale', () => {
    const ledger = emptyLedger(WALLET_ID);
    record(ledger, tx('TR_1', 'CONFIRMED', 2), 'callback');
    assert.equal(record(ledger, tx('TR_1', 'CONFIRMED', 2), 'callback'), 'duplicate');
    assert.equal(record(ledger, tx('TR_1', 'PENDING', 2), 'callback'), 'stale');
    assert.deepEqual(balances(ledger).BTC, { confirmed: '2', pending: '0' });
    assert.deepEqual(ledger.stats, {
      callbacks: 3,
      duplicates: 1,
      stale: 1,
      polls: 0,
      recoveredByPoll: 0,
      expired: 0,
      rejected: 0,
    });
  });

  it('outgoing transactions reduce the balance', () => {
    const ledger = emptyLedger(WALLET_ID);
    record(ledger, tx('TR_1', 'CONFIRMED', 5), 'callback');
    record(ledger, tx('TR_2', 'CONFIRMED', 2, { source: walletSrn(WALLET_ID), dest: 'bitcoin:bc1qxyz' }), 'callback');
    assert.deepEqual(balances(ledger).BTC, { confirmed: '3', pending: '0' });
    assert.equal(recent(ledger)[0]!.kind, 'outgoing');
  });

  it('a transfer from the wallet to itself moves no balance (the provider shows 5, not 7)', () => {
    const ledger = emptyLedger(WALLET_ID);
    record(ledger, tx('TR_IN', 'CONFIRMED', 5), 'callback');
    const self = { source: walletSrn(WALLET_ID), dest: walletSrn(WALLET_ID) };
    assert.equal(record(ledger, tx('TR_SELF', 'PENDING', 2, self), 'callback'), 'new');
    assert.equal(record(ledger, tx('TR_SELF', 'CONFIRMED', 2, self), 'poll'), 'advanced');
    assert.equal(record(ledger, tx('TR_SELF', 'CONFIRMED', 2, self), 'callback'), 'duplicate');
    assert.deepEqual(balances(ledger).BTC, { confirmed: '5', pending: '0' });
    assert.deepEqual({ ...recent(ledger)[0] }, { ...recent(ledger)[0], id: 'TR_SELF', amount: '0', kind: 'transfer' });
  });

  it('decimal sums do not drift', () => {
    const ledger = emptyLedger(WALLET_ID);
    record(ledger, tx('TR_1', 'CONFIRMED', 0.1), 'callback');
    record(ledger, tx('TR_2', 'CONFIRMED', 0.2), 'callback');
    assert.equal(balances(ledger).BTC!.confirmed, '0.3');
  });

  it('evicts old settled entries but still remembers their ids and amounts; pending ones stay', () => {
    const ledger = emptyLedger(WALLET_ID);
    record(ledger, tx('TR_PENDING', 'PENDING', 7), 'callback');
    const count = LIMITS.recentEntries + 25;
    for (let i = 0; i < count; i++) record(ledger, tx(`TR_${i}`, 'CONFIRMED', 1), 'callback');
    assert.equal(Object.keys(ledger.entries).length, LIMITS.recentEntries);
    assert.ok(ledger.entries.TR_PENDING, 'the pending entry was kept');
    assert.equal(
      record(ledger, tx('TR_0', 'CONFIRMED', 1), 'callback'),
      'duplicate',
      'an evicted id is still recognised',
    );
    assert.deepEqual(balances(ledger).BTC, { confirmed: String(count), pending: '7' });
  });
});

describe('ledger: amounts and reversals after settlement', () => {
  const DAY = 86_400_000;
  const fill = (ledger: ReturnType<typeof emptyLedger>, count: number, from = 0, createdAt = 1) => {
    for (let i = from; i < from + count; i++)
      record(ledger, tx(`TR_FILL${i}`, 'CONFIRMED', 1, { createdAt }), 'callback');
  };

  it('the confirmed amount counts, not the pending estimate', () => {
    const ledger = emptyLedger(WALLET_ID);
    record(ledger, tx('TR_1', 'PENDING', 2), 'callback');
    record(ledger, tx('TR_1', 'CONFIRMED', 1.9), 'callback');
    assert.deepEqual(balances(ledger).BTC, { confirmed: '1.9', pending: '0' });
    assert.equal(recent(ledger)[0]!.amount, '1.9');
  });

  it('a REVERSED notice for a settled entry that left the recent entries takes its amount back, once', () => {
    const ledger = emptyLedger(WALLET_ID);
    record(ledger, tx('TR_OLD', 'CONFIRMED', 5), 'callback');
    fill(ledger, LIMITS.recentEntries + 10);
    assert.equal(ledger.entries.TR_OLD, undefined, 'evicted from the recent entries');
    assert.equal(balances(ledger).BTC!.confirmed, String(5 + LIMITS.recentEntries + 10));
    assert.equal(record(ledger, tx('TR_OLD', 'REVERSED', 5), 'callback'), 'advanced');
    assert.equal(balances(ledger).BTC!.confirmed, String(LIMITS.recentEntries + 10));
    assert.equal(record(ledger, tx('TR_OLD', 'REVERSED', 5), 'callback'), 'duplicate');
    assert.equal(record(ledger, tx('TR_OLD', 'CONFIRMED', 5), 'callback'), 'stale');
    assert.equal(balances(ledger).BTC!.confirmed, String(LIMITS.recentEntries + 10));
  });

  it('an outgoing transaction reversed after settlement gives the amount back', () => {
    const ledger = emptyLedger(WALLET_ID);
    record(ledger, tx('TR_IN', 'CONFIRMED', 10), 'callback');
    record(ledger, tx('TR_OUT', 'CONFIRMED', 4, { source: walletSrn(WALLET_ID), dest: 'bitcoin:bc1q' }), 'callback');
    fill(ledger, LIMITS.recentEntries + 5);
    record(ledger, tx('TR_OUT', 'REVERSED', 4, { source: walletSrn(WALLET_ID), dest: 'bitcoin:bc1q' }), 'callback');
    assert.equal(balances(ledger).BTC!.confirmed, String(10 + LIMITS.recentEntries + 5));
  });

  it('a resent CONFIRMED callback is recognised long after the old 5,000-id memory ran out', () => {
    const ledger = emptyLedger(WALLET_ID);
    record(ledger, tx('TR_FIRST', 'CONFIRMED', 3), 'callback');
    fill(ledger, 6_000);
    assert.equal(record(ledger, tx('TR_FIRST', 'CONFIRMED', 3), 'callback'), 'duplicate');
    assert.equal(balances(ledger).BTC!.confirmed, String(6_003));
  });

  it('an unknown transaction older than the window is not counted; the horizon follows the newest', () => {
    const ledger = emptyLedger(WALLET_ID);
    const now = 400 * DAY;
    record(ledger, tx('TR_NOW', 'CONFIRMED', 1, { createdAt: now }), 'callback');
    assert.equal(
      record(ledger, tx('TR_ANCIENT', 'CONFIRMED', 7, { createdAt: now - LIMITS.windowMs - DAY }), 'callback'),
      'expired',
    );
    assert.equal(record(ledger, tx('TR_RECENT', 'CONFIRMED', 2, { createdAt: now - DAY }), 'callback'), 'new');
    assert.deepEqual(balances(ledger).BTC, { confirmed: '3', pending: '0' });
    assert.equal(ledger.stats.expired, 1);
  });

  it('past the record count, the oldest records go and the horizon moves up to them', () => {
    const ledger = emptyLedger(WALLET_ID);
    const saved = LIMITS.settledRecords;
    LIMITS.settledRecords = 50;
    try {
      for (let i = 0; i < LIMITS.recentEntries + 80; i++)
        record(ledger, tx(`TR_C${i}`, 'CONFIRMED', 1, { createdAt: 1_000 + i }), 'callback');
      assert.equal(Object.keys(ledger.settled).length, 50);
      // TR_C0 was forgotten, but it is older than the horizon: a resend is not counted again.
      assert.equal(record(ledger, tx('TR_C0', 'CONFIRMED', 1, { createdAt: 1_000 }), 'callback'), 'expired');
      assert.equal(balances(ledger).BTC!.confirmed, String(LIMITS.recentEntries + 80));
    } finally {
      LIMITS.settledRecords = saved;
    }
  });

  it('a full window of records fits well inside one continue-as-new payload (2 MB)', () => {
    const ledger = emptyLedger(WALLET_ID);
    for (let i = 0; i < LIMITS.settledRecords + LIMITS.recentEntries; i++)
      record(
        ledger,
        tx(`TR_${(1e9 + i).toString(36).toUpperCase()}`, 'CONFIRMED', 0.12345678, { createdAt: 1_700_000_000_000 + i }),
        'poll',
      );
    const bytes = Buffer.byteLength(JSON.stringify(ledger));
    assert.equal(Object.keys(ledger.settled).length, LIMITS.settledRecords);
    assert.ok(bytes < 1_000_000, `${bytes} bytes carried`);
  });
});

describe('ledger: odd input', () => {
  it('a currency that is no currency code is refused and reaches no prototype', () => {
    const ledger = emptyLedger(WALLET_ID);
    assert.equal(record(ledger, tx('TR_P1', 'CONFIRMED', 5, { currency: '__proto__' }), 'callback'), 'rejected');
    assert.equal(record(ledger, tx('TR_P2', 'CONFIRMED', 5, { currency: 'constructor' }), 'callback'), 'rejected');
    assert.equal('confirmed' in balances(ledger), false);
    assert.deepEqual(Object.keys(balances(ledger)), []);
    assert.equal(ledger.stats.rejected, 2);
  });

  it("the ledger's tables have no prototype, also after a continue-as-new", () => {
    const ledger = fromCarried(JSON.parse(JSON.stringify(emptyLedger(WALLET_ID))));
    for (const table of [ledger.entries, ledger.settled, ledger.settledTotals, balances(ledger)])
      assert.equal(Object.getPrototypeOf(table), null);
  });
});

describe('ledger: the shape carried before version 2', () => {
  const v1: LedgerStateV1 = {
    walletId: WALLET_ID,
    entries: {
      TR_E: {
        id: 'TR_E',
        currency: 'BTC',
        amount: 1,
        status: 'PENDING',
        kind: 'deposit',
        source: 'bitcoin:X',
        createdAt: 1,
        firstSeenVia: 'callback',
      },
    },
    order: ['TR_E'],
    settledIds: ['TR_S1', 'TR_S2'],
    settledTotals: { BTC: 4 },
    stats: { callbacks: 3, duplicates: 0, stale: 0, polls: 1, recoveredByPoll: 0 },
  };

  it('is read: balances and remembered ids; a repeated confirmation stays a duplicate', () => {
    const ledger = fromCarried(structuredClone(v1));
    assert.deepEqual(balances(ledger).BTC, { confirmed: '4', pending: '1', approximate: true });
    assert.equal(record(ledger, tx('TR_S1', 'CONFIRMED', 3), 'callback'), 'duplicate');
    assert.equal(record(ledger, tx('TR_S1', 'COMPLETED', 3), 'poll'), 'duplicate');
    assert.equal(record(ledger, tx('TR_S1', 'PENDING', 3), 'callback'), 'stale');
    assert.deepEqual(balances(ledger).BTC, { confirmed: '4', pending: '1', approximate: true });
    assert.equal(ledger.version, 3);
  });

  // The first shape evicted every settled entry (rank 2 or 3: CONFIRMED, COMPLETED, REVERSED,
  // CANCELLED, FAILED, EXPIRED) but added to settledTotals only the confirmed ones, and kept no status.
  it('a REVERSED notice for a remembered id moves no balance: it is counted as unapplied, once', () => {
    // TR_R was confirmed (5), reversed while still recent, then evicted as REVERSED: never in settledTotals.
    const ledger = fromCarried({ ...structuredClone(v1), settledIds: ['TR_S1', 'TR_R'] });
    assert.equal(classify(ledger, tx('TR_R', 'REVERSED', 5)), 'advanced', 'a poll still brings it to the ledger');
    const outcome = recordWithFirstShape(ledger, tx('TR_R', 'REVERSED', 5), 'callback');
    assert.deepEqual(
      balances(ledger).BTC,
      { confirmed: '4', pending: '1', approximate: true },
      'the amount was never counted: nothing to take back',
    );
    assert.equal(outcome, 'unapplied');
    assert.equal(ledger.stats.unapplied, 1);
    assert.equal(
      recordWithFirstShape(ledger, tx('TR_R', 'REVERSED', 5), 'callback'),
      'duplicate',
      'a resend is a repeat',
    );
    assert.equal(recordWithFirstShape(ledger, tx('TR_R', 'CONFIRMED', 5), 'callback'), 'stale');
    assert.equal(ledger.stats.unapplied, 1);
    assert.deepEqual(balances(ledger).BTC, { confirmed: '4', pending: '1', approximate: true });
  });

  it('other ended notices for remembered ids move no balance either, also after a later continue-as-new', () => {
    const carriedAgain = JSON.parse(
      JSON.stringify(fromCarried({ ...structuredClone(v1), settledIds: ['TR_C', 'TR_F', 'TR_X', 'TR_OUT'] })),
    ) as ReturnType<typeof emptyLedger>;
    const ledger = fromCarried(carriedAgain);
    assert.equal(recordWithFirstShape(ledger, tx('TR_C', 'CANCELLED', 2), 'callback'), 'unapplied');
    assert.equal(recordWithFirstShape(ledger, tx('TR_F', 'FAILED', 2), 'poll'), 'unapplied');
    assert.equal(recordWithFirstShape(ledger, tx('TR_X', 'EXPIRED', 2), 'callback'), 'unapplied');
    assert.equal(
      recordWithFirstShape(
        ledger,
        tx('TR_OUT', 'REVERSED', 3, { source: walletSrn(WALLET_ID), dest: 'bitcoin:bc1q' }),
        'callback',
      ),
      'unapplied',
    );
    assert.deepEqual(balances(ledger).BTC, { confirmed: '4', pending: '1', approximate: true });
    assert.equal(ledger.stats.unapplied, 4);
    assert.equal(fromCarried(JSON.parse(JSON.stringify(ledger))).stats.unapplied, 4, 'carried across continue-as-new');
  });

  it('the stat is absent until counted: ledgers of version 2 carry and show the same stats as before', () => {
    assert.equal('unapplied' in emptyLedger(WALLET_ID).stats, false);
    assert.equal('unapplied' in fromCarried(structuredClone(v1)).stats, false);
  });
});
