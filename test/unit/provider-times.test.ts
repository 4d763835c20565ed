import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  changedSince,
  nextCursor,
  type PollCursor,
  PROVIDER_EPOCH_MS,
} from '../../src/provider/transaction-observation.js';
import { fromCarried } from '../../workflows/wallet/carried-ledger.js';
import { balances, classify, emptyLedger, ledgerCursor, LIMITS, record } from '../../workflows/wallet/ledger.js';
import { repairHorizon } from '../../workflows/wallet/legacy-carried-ledger.js';
import { depositInto } from '../helpers/observation.js';

// Defect 1: a createdAt that cannot be a time (in microseconds, in seconds) must not move the
// ledger's horizon or the poll cursor; the wallet keeps counting.

const WALLET_ID = 'WA_TIMES';
const NOW = 1_800_000_000_000;
const HOUR = 3_600_000;
const MICROSECONDS = NOW * 1000;
const SECONDS = Math.floor(NOW / 1000);
const tx = depositInto(WALLET_ID);

describe('times from the provider are bounded', () => {
  it('a far-future createdAt is counted but moves no horizon: real deposits after it still count', () => {
    const ledger = emptyLedger(WALLET_ID);
    assert.equal(record(ledger, tx('TR_MICRO', MICROSECONDS), 'callback', { now: NOW }), 'new');
    assert.equal(ledger.horizon, 0, 'the horizon did not move');
    assert.equal(ledger.entries.TR_MICRO!.timeHeldAside, true);
    assert.equal(record(ledger, tx('TR_REAL1', NOW - HOUR), 'callback', { now: NOW }), 'new');
    assert.equal(record(ledger, tx('TR_REAL2', NOW - 2 * HOUR), 'poll', { now: NOW }), 'new');
    assert.deepEqual(balances(ledger).BTC, { confirmed: '3', pending: '0' });
    assert.equal(ledger.stats.expired, 0);
    assert.equal(ledger.stats.heldAside, 1);
    // A resend of the held transaction is a repeat, not counted again.
    assert.equal(record(ledger, tx('TR_MICRO', MICROSECONDS), 'callback', { now: NOW }), 'duplicate');
  });

  it('a createdAt before the provider epoch (a time in seconds) is counted, never expired, and moves no horizon', () => {
    const ledger = emptyLedger(WALLET_ID);
    record(ledger, tx('TR_REAL', NOW), 'callback', { now: NOW });
    assert.ok(SECONDS < PROVIDER_EPOCH_MS);
    assert.equal(classify(ledger, tx('TR_SECONDS', SECONDS), NOW), 'new');
    assert.equal(record(ledger, tx('TR_SECONDS', SECONDS), 'callback', { now: NOW }), 'new');
    assert.equal(ledger.horizon, NOW - LIMITS.windowMs);
  });

  it('a held transaction that leaves the recent entries is remembered without a time: no horizon follows it', () => {
    const ledger = emptyLedger(WALLET_ID);
    record(ledger, tx('TR_MICRO', MICROSECONDS), 'callback', { now: NOW });
    for (let i = 0; i < LIMITS.recentEntries + 5; i++)
      record(ledger, tx(`TR_F${i}`, NOW - HOUR + i), 'callback', { now: NOW });
    assert.deepEqual(ledger.settled.TR_MICRO, ['BTC', '1', 'CONFIRMED', 0]);
    assert.ok(ledger.horizon < NOW, 'the horizon stays behind now');
  });

  it('a horizon carried from before, moved past now by such a time, is moved back and the wallet counts again', () => {
    const poisoned = emptyLedger(WALLET_ID);
    record(poisoned, tx('TR_MICRO', MICROSECONDS), 'callback'); // as before the bound: no now
    assert.ok(poisoned.horizon > NOW, 'before the fix the horizon jumped');
    assert.equal(record(poisoned, tx('TR_LOST', NOW - HOUR), 'callback'), 'expired');
    const ledger = fromCarried(JSON.parse(JSON.stringify(poisoned)));
    assert.equal(repairHorizon(ledger, NOW), true);
    assert.equal(ledger.horizon, NOW - LIMITS.windowMs);
    assert.equal(record(ledger, tx('TR_LOST', NOW - HOUR), 'callback', { now: NOW }), 'new');
    assert.equal(repairHorizon(ledger, NOW), false, 'a sound horizon stays');
  });

  it("a poll's cursor does not jump past real transactions to a far-future one", () => {
    const ledger = emptyLedger(WALLET_ID);
    const first = [tx('TR_MICRO', MICROSECONDS), tx('TR_A', NOW - 2 * HOUR)];
    const cursor = nextCursor(first, { since: 0, seen: [] }, NOW);
    assert.equal(cursor.since, NOW - 2 * HOUR - HOUR, 'the newest real time less the lookback');
    // The next page brings a real deposit created after the first poll: still found.
    const second = [tx('TR_MICRO', MICROSECONDS), tx('TR_B', NOW - HOUR), tx('TR_A', NOW - 2 * HOUR)];
    const full: PollCursor = { ...cursor, ...ledgerCursor(ledger) };
    assert.deepEqual(
      changedSince(second, full).map((t) => t.id),
      ['TR_B'],
    );
  });
  it("a time some hours ahead (plausible) takes the poll's cursor no further than now", () => {
    const ledger = emptyLedger(WALLET_ID);
    const cursor = nextCursor([tx('TR_SKEWED', NOW + 20 * HOUR)], { since: 0, seen: [] }, NOW);
    assert.ok(cursor.since <= NOW - HOUR, `since ${cursor.since - NOW} ms from now`);
    // A real deposit created an hour later than the first poll is still found by the next.
    const next = [tx('TR_SKEWED', NOW + 20 * HOUR), tx('TR_LATER', NOW + HOUR)];
    assert.deepEqual(
      changedSince(next, { ...cursor, ...ledgerCursor(ledger) }).map((t) => t.id),
      ['TR_LATER'],
    );
  });

  it('entries and records carried from before the bound with impossible times are held aside at the next start', () => {
    const carried = emptyLedger(WALLET_ID);
    record(carried, tx('TR_MICRO', MICROSECONDS), 'callback'); // as before the bound: no now
    carried.settled.TR_OLDMICRO = ['BTC', '1', 'CONFIRMED', MICROSECONDS];
    const ledger = fromCarried(JSON.parse(JSON.stringify(carried)));
    repairHorizon(ledger, NOW);
    assert.equal(ledger.entries.TR_MICRO!.timeHeldAside, true);
    assert.equal(ledger.settled.TR_OLDMICRO![3], 0, 'no time: the count pushes it out, never the horizon');
    for (let i = 0; i < LIMITS.recentEntries + 5; i++)
      record(ledger, tx(`TR_G${i}`, NOW - HOUR + i), 'callback', { now: NOW });
    assert.ok(ledger.horizon < NOW, 'evicting the carried entry moved no horizon past now');
  });
});
