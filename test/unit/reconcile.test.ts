import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findDrift } from '../../workflows/lib/reconcile.js';

describe('reconciliation: the ledger against the provider', () => {
  it('finds no drift where confirmed balances match, pending ones aside', () => {
    assert.deepEqual(findDrift({ BTC: { confirmed: 0.3, pending: 2 } }, { BTC: 0.1 + 0.2 }), []);
  });

  it('names each currency that differs, including one only either side knows', () => {
    assert.deepEqual(
      findDrift({ BTC: { confirmed: 1, pending: 0 }, ETH: { confirmed: 2, pending: 0 } }, { BTC: 1.5, USD: 10 }),
      [
        { currency: 'BTC', ledger: 1, provider: 1.5 },
        { currency: 'ETH', ledger: 2, provider: 0 },
        { currency: 'USD', ledger: 0, provider: 10 },
      ],
    );
  });
});
