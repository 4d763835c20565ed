import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Transaction } from '../../src/provider/schemas/transaction.js';
import { balances, emptyLedger, LIMITS, recent, record } from '../../workflows/lib/ledger.js';

const W = 'WA_LEDGER';
const tx = (id: string, status: string, amount = 1, extra: Partial<Transaction> = {}): Transaction => ({
  id, createdAt: 1, source: 'bitcoin:EXTERNAL', dest: `wallet:${W}`, currency: 'BTC', amount, status, metadata: {}, tags: [], ...extra,
});

describe('ledger: each transaction counts once', () => {
  it('pending then confirmed moves the amount from pending to confirmed', () => {
    const l = emptyLedger(W);
    assert.equal(record(l, tx('TR_1', 'PENDING', 2), 'callback'), 'new');
    assert.deepEqual(balances(l).BTC, { confirmed: 0, pending: 2 });
    assert.equal(record(l, tx('TR_1', 'CONFIRMED', 2), 'callback'), 'advanced');
    assert.deepEqual(balances(l).BTC, { confirmed: 2, pending: 0 });
  });

  it('repeats are duplicates; a pending notice after confirmation is stale', () => {
    const l = emptyLedger(W);
    record(l, tx('TR_1', 'CONFIRMED', 2), 'callback');
    assert.equal(record(l, tx('TR_1', 'CONFIRMED', 2), 'callback'), 'duplicate');
    assert.equal(record(l, tx('TR_1', 'PENDING', 2), 'callback'), 'stale');
    assert.deepEqual(balances(l).BTC, { confirmed: 2, pending: 0 });
    assert.deepEqual(l.stats, { callbacks: 3, duplicates: 1, stale: 1, polls: 0, recoveredByPoll: 0 });
  });

  it('outgoing transactions reduce the balance', () => {
    const l = emptyLedger(W);
    record(l, tx('TR_1', 'CONFIRMED', 5), 'callback');
    record(l, tx('TR_2', 'CONFIRMED', 2, { source: `wallet:${W}`, dest: 'bitcoin:bc1qxyz' }), 'callback');
    assert.deepEqual(balances(l).BTC, { confirmed: 3, pending: 0 });
    assert.equal(recent(l)[0]!.kind, 'outgoing');
  });

  it('decimal sums do not drift', () => {
    const l = emptyLedger(W);
    record(l, tx('TR_1', 'CONFIRMED', 0.1), 'callback');
    record(l, tx('TR_2', 'CONFIRMED', 0.2), 'callback');
    assert.equal(balances(l).BTC!.confirmed, 0.3);
  });

  it('evicts old settled entries but still remembers their ids and amounts; pending ones stay', () => {
    const l = emptyLedger(W);
    record(l, tx('TR_PENDING', 'PENDING', 7), 'callback');
    const n = LIMITS.recentEntries + 25;
    for (let i = 0; i < n; i++) record(l, tx(`TR_${i}`, 'CONFIRMED', 1), 'callback');
    assert.equal(Object.keys(l.entries).length, LIMITS.recentEntries);
    assert.ok(l.entries.TR_PENDING, 'the pending entry was kept');
    assert.equal(record(l, tx('TR_0', 'CONFIRMED', 1), 'callback'), 'duplicate', 'an evicted id is still recognised');
    assert.deepEqual(balances(l).BTC, { confirmed: n, pending: 7 });
  });
});
