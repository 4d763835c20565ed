import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { PROVIDER_EPOCH_MS } from '../../src/provider/transaction-observation.js';
import { fromCarried } from '../../workflows/wallet/carried-ledger.js';
import {
  balances,
  emptyLedger,
  type LedgerState,
  LIMITS,
  record,
  type RecordOptions,
} from '../../workflows/wallet/ledger.js';
import { depositInto } from '../helpers/observation.js';
import { withLimits } from '../helpers/ledger-limits.js';

// A transaction whose createdAt cannot be a time is held aside: counted, but with no time the
// ledger's horizon cannot stand for it once its record is gone. It is counted once however long
// the wallet lives and however many transactions pass between its notices.

const WALLET_ID = 'WA_HELD';
const NOW = 1_800_000_000_000;
const MINUTE = 60_000;
const DAY = 86_400_000;
const tx = depositInto(WALLET_ID);
/** How runs since wallet-held-aside-kept record. */
const TODAY: RecordOptions = { now: NOW, keepHeldAside: true };
/** Impossible times: in microseconds, in seconds, none, just before the provider's epoch. */
const IMPOSSIBLE = [NOW * 1000, Math.floor(NOW / 1000), 0, PROVIDER_EPOCH_MS - 1];

const carry = (ledger: LedgerState): LedgerState => fromCarried(JSON.parse(JSON.stringify(ledger)));

describe('ledger: a transaction held aside is counted once for ever', () => {
  it('at the real limits: 200 entries and 10,000 records pass, its resend is a repeat (10,401 confirmed)', () => {
    let ledger = emptyLedger(WALLET_ID);
    assert.equal(record(ledger, tx('TR_MICRO', NOW * 1000), 'callback', TODAY), 'new');
    for (let i = 0; i < LIMITS.recentEntries + LIMITS.settledRecords + 100; i++) {
      record(ledger, tx(`TR_F${i}`, NOW - 10 * DAY + i * MINUTE), 'callback', TODAY);
      if (i % 2_500 === 0) ledger = carry(ledger);
    }
    assert.equal(record(ledger, tx('TR_MICRO', NOW * 1000), 'callback', TODAY), 'duplicate');
    assert.equal(balances(ledger).BTC!.confirmed, String(1 + LIMITS.recentEntries + LIMITS.settledRecords + 100));
    assert.equal(ledger.stats.heldAside, 1);
  });

  it('a late reversal of it still takes its amount back, after the count passed it', () => {
    withLimits({ recentEntries: 2, settledRecords: 3 }, () => {
      const ledger = emptyLedger(WALLET_ID);
      record(ledger, tx('TR_SECONDS', Math.floor(NOW / 1000)), 'callback', TODAY);
      for (let i = 0; i < 20; i++) record(ledger, tx(`TR_F${i}`, NOW - DAY + i), 'callback', TODAY);
      assert.equal(record(ledger, tx('TR_SECONDS', Math.floor(NOW / 1000), 'REVERSED'), 'callback', TODAY), 'advanced');
      assert.equal(balances(ledger).BTC!.confirmed, '20');
    });
  });

  it('the records it keeps do not count against the bound: dated records still keep their window', () => {
    withLimits({ recentEntries: 2, settledRecords: 5 }, () => {
      const ledger = emptyLedger(WALLET_ID);
      for (let i = 0; i < 4; i++) record(ledger, tx(`TR_H${i}`, NOW * 1000 + i), 'callback', TODAY);
      for (let i = 0; i < 9; i++) record(ledger, tx(`TR_F${i}`, NOW - DAY + i), 'callback', TODAY);
      // 4 held + 5 dated records, 2 entries: the oldest dated ones went, and the horizon with them.
      assert.equal(Object.keys(ledger.settled).length, 9);
      assert.ok(ledger.settled.TR_F1 === undefined && ledger.settled.TR_F2 !== undefined);
      assert.equal(ledger.horizon, NOW - DAY + 1 + 1);
    });
  });

  it('runs from before wallet-held-aside-kept (no keepHeldAside) push it out by the count, as they did', () => {
    withLimits({ recentEntries: 2, settledRecords: 3 }, () => {
      const ledger = emptyLedger(WALLET_ID);
      record(ledger, tx('TR_MICRO', NOW * 1000), 'callback', { now: NOW });
      for (let i = 0; i < 10; i++) record(ledger, tx(`TR_F${i}`, NOW - DAY + i), 'callback', { now: NOW });
      assert.equal(ledger.settled.TR_MICRO, undefined);
    });
  });

  it('in any order, with any repeats and any number of transactions between (property)', () => {
    const STATUSES = ['PENDING', 'CONFIRMED', 'REVERSED', 'FAILED'] as const;
    const rank = (status: string) => (status === 'PENDING' ? 0 : status === 'CONFIRMED' ? 2 : 3);
    const held = fc.record({
      at: fc.constantFrom(...IMPOSSIBLE),
      statuses: fc.subarray([...STATUSES], { minLength: 1 }),
      repeats: fc.integer({ min: 1, max: 3 }),
    });
    // A step: a notice of a held transaction, some ordinary deposits, or a continue-as-new.
    const step = fc.oneof(
      fc.record({ notice: fc.nat() }),
      fc.record({ deposits: fc.integer({ min: 1, max: 25 }) }),
      fc.constant({ carry: true as const }),
    );
    withLimits({ recentEntries: 4, settledRecords: 6 }, () =>
      fc.assert(
        fc.property(fc.array(held, { minLength: 1, maxLength: 6 }), fc.array(step, { maxLength: 40 }), (txs, steps) => {
          // Every notice of every held transaction, repeated, in the order the steps pick them.
          const notices = txs.flatMap((t, i) =>
            t.statuses.flatMap((status) => Array.from({ length: t.repeats }, () => ({ i, status }))),
          );
          let ledger = emptyLedger(WALLET_ID);
          let deposits = 0;
          const give = (k: number) => {
            const [{ i, status }] = notices.splice(k % notices.length, 1) as [{ i: number; status: string }];
            record(ledger, tx(`TR_HELD${i}`, txs[i]!.at, status), i % 2 ? 'poll' : 'callback', TODAY);
          };
          for (const s of steps) {
            if ('carry' in s) ledger = carry(ledger);
            else if ('deposits' in s)
              // Ordinary deposits in time order: each one counts.
              for (let d = 0; d < s.deposits; d++, deposits++)
                record(ledger, tx(`TR_D${deposits}`, NOW - 30 * DAY + deposits * MINUTE), 'callback', TODAY);
            else if (notices.length > 0) give(s.notice);
          }
          while (notices.length > 0) give(0);
          // Each held transaction counts where its furthest status leaves it, once.
          let confirmed = deposits;
          let pending = 0;
          for (const t of txs) {
            const last = [...t.statuses].sort((a, b) => rank(b) - rank(a))[0]!;
            if (last === 'CONFIRMED') confirmed += 1;
            if (last === 'PENDING') pending += 1;
          }
          const balance = balances(ledger).BTC ?? { confirmed: '0', pending: '0' };
          assert.deepEqual(balance, { confirmed: String(confirmed), pending: String(pending) });
          assert.equal(ledger.stats.heldAside, txs.length);
        }),
        { numRuns: 300 },
      ),
    );
  });
});
