import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findDrift } from '../../workflows/wallet/drift.js';

describe('reconciliation: the ledger against the provider', () => {
  it('finds no drift where confirmed balances match, pending ones aside', () => {
    assert.deepEqual(findDrift({ BTC: { confirmed: '0.3', pending: '2' } }, { BTC: '0.30' }), []);
  });

  it('names each currency that differs, including one only either side knows', () => {
    assert.deepEqual(
      findDrift(
        { BTC: { confirmed: '1', pending: '0' }, ETH: { confirmed: '2', pending: '0' } },
        { BTC: '1.5', USD: '10' },
      ),
      [
        { currency: 'BTC', ledger: '1', provider: '1.5' },
        { currency: 'ETH', ledger: '2', provider: '0' },
        { currency: 'USD', ledger: '0', provider: '10' },
      ],
    );
  });

  it('compares exactly: one wei apart is a drift, equal is none, with no tolerance', () => {
    const ledger = { ETH: { confirmed: '1.000000000000000001', pending: '0' } };
    assert.deepEqual(findDrift(ledger, { ETH: '1' }), [
      { currency: 'ETH', ledger: '1.000000000000000001', provider: '1' },
    ]);
    assert.deepEqual(findDrift(ledger, { ETH: '1.0000000000000000010' }), []);
    // 1e-9 apart was "equal" with the old tolerance.
    assert.equal(findDrift({ USD: { confirmed: '100.000000001', pending: '0' } }, { USD: '100' }).length, 1);
  });

  it('reads a provider balance recorded as a number (histories from before exact amounts)', () => {
    assert.deepEqual(findDrift({ BTC: { confirmed: '0.3', pending: '0' } }, { BTC: 0.3 }), []);
  });

  it('says a drift in a currency carried as approximate is approximate', () => {
    assert.deepEqual(
      findDrift({ BTC: { confirmed: '0.30000000000000004', pending: '0', approximate: true } }, { BTC: '0.3' }),
      [{ currency: 'BTC', ledger: '0.30000000000000004', provider: '0.3', approximate: true }],
    );
  });
});
