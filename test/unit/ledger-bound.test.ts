import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Observation } from '../../src/provider/transaction-observation.js';
import { walletSrn } from '../../src/provider/srn.js';
import { fromCarried } from '../../workflows/wallet/carried-ledger.js';
import { balances, emptyLedger, LIMITS, record } from '../../workflows/wallet/ledger.js';

// Pending entries are bounded: what a wallet carries across continue-as-new stays bounded even
// when transactions never settle.

const WALLET_ID = 'WA_BOUND';
const NOW = 1_800_000_000_000;
const DAY = 86_400_000;
const tx = (id: string, status: string, createdAt = NOW - DAY, amount = '1'): Observation => ({
  id,
  createdAt,
  source: 'bitcoin:EXTERNAL',
  dest: walletSrn(WALLET_ID),
  currency: 'BTC',
  amount,
  status,
  confirmedAt: null,
});

describe('ledger: pending entries are bounded', () => {
  it('5,000 transactions that never settle: the entries stay within the bound, the carried state too', () => {
    const ledger = emptyLedger(WALLET_ID);
    for (let i = 0; i < 5_000; i++) record(ledger, tx(`TR_P${i}`, 'PENDING', NOW - DAY + i), 'callback', { now: NOW });
    assert.equal(Object.keys(ledger.entries).length, LIMITS.pendingEntries);
    assert.equal(ledger.order.length, LIMITS.pendingEntries);
    assert.equal(ledger.stats.pendingDropped, 5_000 - LIMITS.pendingEntries);
    assert.equal(balances(ledger).BTC!.pending, String(LIMITS.pendingEntries), 'the newest pending still show');
    assert.ok(ledger.entries.TR_P4999 && !ledger.entries.TR_P0, 'the oldest left first');
    assert.ok(Buffer.byteLength(JSON.stringify(ledger)) < 1_000_000);
  });

  it('a dropped pending transaction that confirms later still counts, once; a reversal takes it back', () => {
    const ledger = emptyLedger(WALLET_ID);
    const saved = LIMITS.pendingEntries;
    LIMITS.pendingEntries = 3;
    try {
      for (let i = 0; i < 5; i++)
        record(ledger, tx(`TR_Q${i}`, 'PENDING', NOW - DAY + i, '2'), 'callback', { now: NOW });
      assert.deepEqual(balances(ledger).BTC, { confirmed: '0', pending: '6' });
      assert.equal(ledger.stats.pendingDropped, 2);
      assert.equal(record(ledger, tx('TR_Q0', 'PENDING', NOW - DAY, '2'), 'callback', { now: NOW }), 'duplicate');
      assert.equal(record(ledger, tx('TR_Q0', 'CONFIRMED', NOW - DAY, '1.5'), 'poll', { now: NOW }), 'advanced');
      assert.equal(record(ledger, tx('TR_Q0', 'CONFIRMED', NOW - DAY, '1.5'), 'callback', { now: NOW }), 'duplicate');
      assert.deepEqual(balances(ledger).BTC, { confirmed: '1.5', pending: '6' });
      const carried = fromCarried(JSON.parse(JSON.stringify(ledger)));
      record(carried, tx('TR_Q0', 'REVERSED', NOW - DAY, '1.5'), 'callback', { now: NOW });
      assert.deepEqual(balances(carried).BTC, { confirmed: '0', pending: '6' });
    } finally {
      LIMITS.pendingEntries = saved;
    }
  });

  it('a transaction pending longer than the age bound leaves the entries', () => {
    const ledger = emptyLedger(WALLET_ID);
    record(ledger, tx('TR_OLDPENDING', 'PENDING', NOW - LIMITS.pendingAgeMs - DAY), 'callback', { now: NOW });
    record(ledger, tx('TR_NEW', 'PENDING', NOW - DAY), 'callback', { now: NOW });
    assert.deepEqual(Object.keys(ledger.entries), ['TR_NEW']);
    assert.equal(ledger.stats.pendingDropped, 1);
  });

  it('runs from before the bound (no now) keep every pending entry, as they did', () => {
    const ledger = emptyLedger(WALLET_ID);
    for (let i = 0; i < LIMITS.pendingEntries + 10; i++) record(ledger, tx(`TR_L${i}`, 'PENDING'), 'callback');
    assert.equal(Object.keys(ledger.entries).length, LIMITS.pendingEntries + 10);
  });
});

describe('ledger: the cost of a transaction does not grow with the records it keeps', () => {
  it('below the record bound, recording walks the settled records once per run, not once per transaction', () => {
    const ledger = emptyLedger(WALLET_ID);
    for (let i = 0; i < 2_000; i++)
      record(ledger, tx(`TR_S${i}`, 'CONFIRMED', NOW - DAY + i), 'callback', { now: NOW });
    // Every walk of the table (Object.keys, for…in, entries) asks the proxy for its keys.
    let walks = 0;
    ledger.settled = new Proxy(ledger.settled, {
      ownKeys: (target) => {
        walks += 1;
        return Reflect.ownKeys(target);
      },
    });
    for (let i = 0; i < 500; i++)
      record(ledger, tx(`TR_T${i}`, 'CONFIRMED', NOW - DAY + 2_000 + i), 'callback', { now: NOW });
    assert.ok(walks <= 1, `${walks} walks of ${Object.keys(ledger.settled).length} records for 500 transactions`);
    assert.equal(Object.keys(ledger.settled).length, 2_500 - LIMITS.recentEntries);
    assert.equal(balances(ledger).BTC!.confirmed, '2500');
  });
});

describe('ledger: the record bound trims a carried table that is over it', () => {
  it('records out of time order, more than one over the bound: the next transaction trims them without failing', () => {
    // A table can be over the bound by several at once (pending entries dropped together, or a
    // bound lowered by a deploy), and insertion order is not time order: trimming the oldest
    // inserted record moves the horizon past records inserted after it.
    const carried = emptyLedger(WALLET_ID);
    carried.settled = {
      TR_X: ['BTC', '1', 'CONFIRMED', NOW - 10 * DAY],
      TR_Y: ['BTC', '1', 'CONFIRMED', NOW - 20 * DAY],
      TR_Z: ['BTC', '1', 'CONFIRMED', NOW - 5 * DAY],
    };
    carried.settledTotals = { BTC: '3' };
    const ledger = fromCarried(JSON.parse(JSON.stringify(carried)));
    const saved = LIMITS.settledRecords;
    LIMITS.settledRecords = 1;
    try {
      assert.equal(record(ledger, tx('TR_NEXT', 'PENDING', NOW - DAY), 'callback', { now: NOW }), 'new');
      assert.deepEqual(Object.keys(ledger.settled), ['TR_Z'], 'the two oldest inserted left, the newest stays');
      assert.equal(ledger.horizon, NOW - 10 * DAY + 1, 'the horizon follows the newest record that left');
      assert.equal(record(ledger, tx('TR_Y', 'CONFIRMED', NOW - 20 * DAY), 'callback', { now: NOW }), 'expired');
      assert.equal(record(ledger, tx('TR_Z', 'CONFIRMED', NOW - 5 * DAY), 'callback', { now: NOW }), 'duplicate');
      assert.deepEqual(balances(ledger).BTC, { confirmed: '3', pending: '1' }, 'totals keep what was counted');
    } finally {
      LIMITS.settledRecords = saved;
    }
  });
});

describe('ledger: settled records stay within their bound while many transactions are pending', () => {
  // 10,000 records, then more pending than the entries hold: the ones dropped become records.
  const fill = (options: { boundRecordsWhilePending?: boolean }) => {
    const ledger = emptyLedger(WALLET_ID);
    for (let i = 0; i < 12_000; i++)
      record(ledger, tx(`TR_C${i}`, 'CONFIRMED', NOW - 2 * DAY + i), 'callback', { now: NOW, ...options });
    for (let i = 0; i < 1_500; i++)
      record(ledger, tx(`TR_Q${i}`, 'PENDING', NOW - DAY + i), 'callback', { now: NOW, ...options });
    return ledger;
  };

  it(`holds at most ${LIMITS.settledRecords.toLocaleString('en')} records and ${LIMITS.pendingEntries.toLocaleString('en')} entries`, () => {
    const ledger = fill({ boundRecordsWhilePending: true });
    assert.equal(Object.keys(ledger.settled).length, LIMITS.settledRecords);
    assert.equal(ledger.order.length, LIMITS.pendingEntries);
    assert.equal(balances(ledger).BTC!.pending, String(LIMITS.pendingEntries), 'the newest pending still show');
    assert.ok(ledger.settled.TR_Q0, 'the oldest dropped pending transaction has its record');
  });

  it('a run from before wallet-records-bounded keeps its records past the bound, as it recorded them', () => {
    const ledger = fill({});
    assert.equal(Object.keys(ledger.settled).length, LIMITS.settledRecords + 500);
  });
});
