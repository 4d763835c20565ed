import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  changedSince,
  type Observation,
  POLL_PAGE_LIMIT,
  type PollCursor,
} from '../../src/provider/transaction-observation.js';
import { fromCarried } from '../../workflows/wallet/carried-ledger.js';
import { type LedgerStateV1 } from '../../workflows/wallet/legacy-carried-ledger.js';
import {
  classify,
  emptyLedger,
  type LedgerState,
  ledgerCursor,
  LIMITS,
  record,
} from '../../workflows/wallet/ledger.js';
import { depositInto } from '../helpers/observation.js';
import { withLimits } from '../helpers/ledger-limits.js';

// A poll returns a transaction that ended other than confirmed only when the ledger would change
// by it: not one it holds ended as a settled record, nor one older than its horizon that it no
// longer knows. Before, such a transaction came back at every poll, and the wallet's watch
// completed (and wrote history) each time.

const WALLET_ID = 'WA_ENDED';
const NOW = 1_800_000_000_000;
const DAY = 86_400_000;
const tx = depositInto(WALLET_ID);
const TODAY = { now: NOW, keepHeldAside: true };
/** A cursor whose page part has seen everything: only the ledger's part decides. */
const cursorOf = (ledger: LedgerState): PollCursor => ({
  since: Number.MAX_SAFE_INTEGER,
  seen: [],
  ...ledgerCursor(ledger),
});
const changed = (page: Observation[], ledger: LedgerState) => changedSince(page, cursorOf(ledger)).map((t) => t.id);

/** A ledger where TR_OLD settled with `status` and then left the recent entries for a record. */
function leftEntries(status: string, createdAt = NOW - 100 * DAY): LedgerState {
  const ledger = emptyLedger(WALLET_ID);
  record(ledger, tx('TR_OLD', createdAt, status), 'callback', TODAY);
  for (let i = 0; i < LIMITS.recentEntries; i++) record(ledger, tx(`TR_N${i}`, NOW - DAY + i), 'callback', TODAY);
  assert.ok(ledger.settled.TR_OLD && !ledger.entries.TR_OLD, 'TR_OLD is a settled record');
  return ledger;
}

describe('poll: a transaction that ended unconfirmed long ago is not news', () => {
  it('a FAILED transaction the ledger keeps as a settled record is not returned', () => {
    const ledger = leftEntries('FAILED');
    assert.deepEqual(changed([tx('TR_OLD', NOW - 100 * DAY, 'FAILED')], ledger), []);
  });

  it('a FAILED transaction older than the horizon, which the ledger no longer knows, is not returned', () => {
    const ledger = emptyLedger(WALLET_ID);
    record(ledger, tx('TR_NEW', NOW - DAY), 'callback', TODAY);
    const old = tx('TR_GONE', NOW - 200 * DAY, 'FAILED');
    assert.equal(classify(ledger, old, NOW), 'expired');
    assert.deepEqual(changed([old], ledger), []);
  });

  it('a late reversal is still returned: of a settled record, and of an entry older than the horizon', () => {
    const ledger = leftEntries('CONFIRMED');
    assert.deepEqual(changed([tx('TR_OLD', NOW - 100 * DAY, 'REVERSED')], ledger), ['TR_OLD']);
    // A quiet wallet: its one deposit is a year older than the horizon another moved, still an entry.
    const quiet = emptyLedger(WALLET_ID);
    record(quiet, tx('TR_YEAR', NOW - 365 * DAY), 'callback', TODAY);
    record(quiet, tx('TR_NEW', NOW - DAY), 'callback', TODAY);
    assert.ok(quiet.horizon > NOW - 365 * DAY && quiet.entries.TR_YEAR);
    assert.deepEqual(changed([tx('TR_YEAR', NOW - 365 * DAY, 'REVERSED')], quiet), ['TR_YEAR']);
  });

  it('a late reversal of a held-aside deposit is returned, whatever its time says, entry or record', () => {
    // Its createdAt in seconds: held aside, and as a time far below any horizon.
    const inSeconds = Math.floor((NOW - 100 * DAY) / 1000);
    const asRecord = leftEntries('CONFIRMED', inSeconds);
    assert.equal(asRecord.settled.TR_OLD![3], 0, 'held aside as a record');
    assert.deepEqual(changed([tx('TR_OLD', inSeconds, 'REVERSED')], asRecord), ['TR_OLD']);
    const asEntry = emptyLedger(WALLET_ID);
    record(asEntry, tx('TR_OLD', inSeconds), 'callback', TODAY);
    record(asEntry, tx('TR_NEW', NOW - DAY), 'callback', TODAY);
    assert.ok(asEntry.entries.TR_OLD, 'held aside as an entry');
    assert.deepEqual(changed([tx('TR_OLD', inSeconds, 'REVERSED')], asEntry), ['TR_OLD']);
    // Held aside for a time past tomorrow, which later is a real time that the horizon passes.
    const ahead = NOW + 2 * DAY;
    const later = { now: NOW + 400 * DAY, keepHeldAside: true };
    const passed = emptyLedger(WALLET_ID);
    record(passed, tx('TR_AHEAD', ahead), 'callback', TODAY);
    for (let i = 0; i < LIMITS.recentEntries + 1; i++)
      record(passed, tx(`TR_L${i}`, NOW + 399 * DAY + i), 'callback', later);
    assert.deepEqual(changed([tx('TR_AHEAD', ahead, 'REVERSED')], passed), ['TR_AHEAD']);
  });

  it('a held-aside transaction that ended is not returned once the ledger holds it ended', () => {
    const ledger = leftEntries('FAILED', NOW * 1000);
    assert.equal(ledger.settled.TR_OLD![3], 0);
    assert.deepEqual(changed([tx('TR_OLD', NOW * 1000, 'FAILED')], ledger), []);
  });

  it('a transaction remembered from the first shape (status unknown) is still returned when it ends', () => {
    const v1: LedgerStateV1 = {
      walletId: WALLET_ID,
      entries: {},
      order: [],
      settledIds: ['TR_V1'],
      settledTotals: { BTC: 1 },
      stats: { callbacks: 1, duplicates: 0, stale: 0, polls: 0, recoveredByPoll: 0 },
    };
    const ledger = fromCarried(v1);
    record(ledger, tx('TR_NEW', NOW - DAY), 'callback', TODAY);
    const ended = tx('TR_V1', NOW - 300 * DAY, 'REVERSED');
    assert.equal(classify(ledger, ended, NOW), 'advanced');
    assert.deepEqual(changed([ended], ledger), ['TR_V1']);
  });

  it('the cursor stays bounded: 10,000 FAILED records carry at most a page of ids', () => {
    const ledger = emptyLedger(WALLET_ID);
    for (let i = 0; i < LIMITS.settledRecords; i++)
      record(ledger, tx(`TR_F${i}`, NOW - 10 * DAY + i * 60_000, 'FAILED'), 'callback', TODAY);
    const cursor = cursorOf(ledger);
    assert.ok(cursor.ended.length <= LIMITS.recentEntries + POLL_PAGE_LIMIT, `${cursor.ended.length} ids`);
    // The provider's page is its newest transactions: every one is known ended, none is news.
    const page = Array.from({ length: POLL_PAGE_LIMIT }, (_, k) => {
      const i = LIMITS.settledRecords - 1 - k;
      return tx(`TR_F${i}`, NOW - 10 * DAY + i * 60_000, 'FAILED');
    });
    assert.deepEqual(changedSince(page, cursor), []);
  });

  it("an ended transaction on the provider's newest page is returned when the ledger would change by it, never when it holds it ended (property)", () => {
    const STATUSES = ['PENDING', 'CONFIRMED', 'REVERSED', 'FAILED', 'CANCELLED'] as const;
    const transaction = fc.record({
      ageDays: fc.integer({ min: 0, max: 400 }),
      seen: fc.constantFrom(...STATUSES, 'unseen'),
      listed: fc.constantFrom(...STATUSES),
      held: fc.boolean(),
    });
    withLimits({ recentEntries: 5, settledRecords: 40 }, () =>
      fc.assert(
        fc.property(fc.array(transaction, { maxLength: 250 }), (txs) => {
          let ledger = emptyLedger(WALLET_ID);
          const observations = txs.map((t, i) => ({
            id: `TR_${i}`,
            at: t.held ? NOW * 1000 + i : NOW - t.ageDays * DAY + i,
            ...t,
          }));
          // The ledger saw them in the order they were created (a time held aside at its own place).
          for (const o of [...observations].sort((a, b) => a.ageDays - b.ageDays || 0).reverse())
            if (o.seen !== 'unseen') record(ledger, tx(o.id, o.at, o.seen), 'callback', TODAY);
          ledger = fromCarried(JSON.parse(JSON.stringify(ledger)));
          // The provider's newest page, with each transaction's status now.
          const page = observations
            .map((o) => tx(o.id, o.at, o.listed))
            .sort((a, b) => b.createdAt - a.createdAt)
            .slice(0, POLL_PAGE_LIMIT);
          const returned = new Set(changed(page, ledger));
          for (const listed of page) {
            if (!['REVERSED', 'FAILED', 'CANCELLED'].includes(listed.status)) continue;
            const outcome = classify(ledger, listed, NOW);
            const why = `${listed.id} ${listed.status}: ${outcome}`;
            // What would change the ledger is always returned (a late reversal is never missed)…
            if (['new', 'advanced'].includes(outcome)) assert.ok(returned.has(listed.id), why);
            // …and what it holds as ended already never is. (One it no longer knows is returned
            // only while it knows a confirmed one older still: the horizon stays below that one.)
            const held = Object.hasOwn(ledger.entries, listed.id) || Object.hasOwn(ledger.settled, listed.id);
            if (held && ['duplicate', 'stale'].includes(outcome)) assert.ok(!returned.has(listed.id), why);
          }
        }),
        { numRuns: 200 },
      ),
    );
  });
});
