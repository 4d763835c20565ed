import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  changedSince,
  nextCursor,
  type Observation,
  type PollCursor,
  POLL_LOOKBACK_MS,
} from '../../src/provider/transaction-observation.js';
import { emptyLedger, ledgerCursor, record } from '../../workflows/wallet/ledger.js';
import { depositInto } from '../helpers/observation.js';

const WALLET_ID = 'WA_CURSOR';
const T0 = 1_800_000_000_000;
const tx = depositInto(WALLET_ID);
const none: PollCursor = { since: 0, seen: [], open: {}, ended: [] };

/** A poll as the workflow and the activity make it together, against one ledger. */
function poll(page: Observation[], ledger: ReturnType<typeof emptyLedger>, at: Pick<PollCursor, 'since' | 'seen'>) {
  const cursor = { ...at, ...ledgerCursor(ledger) };
  const changed = changedSince(page, cursor);
  for (const transaction of changed) record(ledger, transaction, 'poll');
  return { changed: changed.map((t) => t.id), next: nextCursor(page, cursor) };
}

describe('poll cursor: a poll returns only what could change the ledger', () => {
  it('the first poll returns every transaction, oldest first; the same page again returns nothing', () => {
    const ledger = emptyLedger(WALLET_ID);
    const page = [tx('TR_3', T0 + 3), tx('TR_2', T0 + 2), tx('TR_1', T0 + 1)];
    const first = poll(page, ledger, none);
    assert.deepEqual(first.changed, ['TR_1', 'TR_2', 'TR_3']);
    assert.deepEqual(poll(page, ledger, first.next).changed, []);
  });

  it('a new transaction, and a new status of a pending one, are returned; nothing else', () => {
    const ledger = emptyLedger(WALLET_ID);
    const first = poll([tx('TR_2', T0 + 2, 'PENDING'), tx('TR_1', T0 + 1)], ledger, none);
    const second = poll(
      [tx('TR_3', T0 + 3, 'PENDING'), tx('TR_2', T0 + 2, 'CONFIRMED'), tx('TR_1', T0 + 1)],
      ledger,
      first.next,
    );
    assert.deepEqual(second.changed, ['TR_2', 'TR_3']);
  });

  it('a transaction created before the newest one seen, whose callback was lost, is still returned', () => {
    // TR_2 came by callback; TR_1, older, lost its callback and shows up in the list later.
    const ledger = emptyLedger(WALLET_ID);
    const first = poll([], ledger, none);
    record(ledger, tx('TR_2', T0 + 2), 'callback');
    assert.deepEqual(poll([tx('TR_2', T0 + 2), tx('TR_1', T0 + 1)], ledger, first.next).changed, ['TR_1', 'TR_2']);
  });

  it('a transaction listed late, within the look-back, is returned; the look-back is bounded', () => {
    const ledger = emptyLedger(WALLET_ID);
    const first = poll([tx('TR_9', T0)], ledger, none);
    const late = tx('TR_8', T0 - POLL_LOOKBACK_MS / 2);
    assert.deepEqual(poll([tx('TR_9', T0), late], ledger, first.next).changed, ['TR_8']);
    assert.ok(first.next.since === T0 - POLL_LOOKBACK_MS);
  });

  it('a settled transaction reversed later is returned until the ledger holds it reversed', () => {
    const ledger = emptyLedger(WALLET_ID);
    const first = poll([tx('TR_1', T0)], ledger, none);
    const reversed = poll([tx('TR_1', T0, 'REVERSED')], ledger, first.next);
    assert.deepEqual(reversed.changed, ['TR_1']);
    assert.equal(ledger.entries.TR_1!.status, 'REVERSED');
    assert.deepEqual(poll([tx('TR_1', T0, 'REVERSED')], ledger, reversed.next).changed, []);
  });

  it('what a quiet wallet carries stays small however many transactions it has', () => {
    const ledger = emptyLedger(WALLET_ID);
    // A hundred old transactions a day apart, the most the provider lists.
    const page = Array.from({ length: 100 }, (_, i) => tx(`TR_${i}`, T0 - i * 86_400_000));
    let at = poll(page, ledger, none).next;
    at = poll(page, ledger, at).next;
    const cursor = { ...at, ...ledgerCursor(ledger) };
    assert.deepEqual(cursor.seen, ['TR_0']);
    assert.ok(JSON.stringify(cursor).length < 200, JSON.stringify(cursor));
  });
});
