import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCallback } from '../../src/ingress/callback.js';
import { walletSrn } from '../../src/provider/srn.js';

// The ingress reads a verified callback exactly and signals only what the ledger uses.

const body = (amount: string) =>
  Buffer.from(
    `{"id":"TR_CB1","createdAt":1800000000000,"source":"ethereum:EXTERNAL","dest":"${walletSrn('WA_CB')}",` +
      `"currency":"ETH","amount":${amount},"status":"CONFIRMED","message":"rent for Jane Doe, flat 4",` +
      `"senderProvidedId":"jane.doe@example.com","metadata":{"note":"free text"},"tags":["x"],"fees":0.000000000000000001}`,
  );

describe('ingress: the callback as signalled', () => {
  it('carries only the fields the ledger uses: no message, senderProvidedId or metadata', () => {
    const parsed = parseCallback(body('1.5'));
    assert.ok(parsed.ok);
    assert.deepEqual(Object.keys(parsed.tx).sort(), [
      'amount',
      'confirmedAt',
      'createdAt',
      'currency',
      'dest',
      'id',
      'source',
      'status',
    ]);
    assert.doesNotMatch(JSON.stringify(parsed.tx), /Jane|jane|free text/);
  });

  it('keeps every digit of the amount: 1.000000000000000001 is not 1', () => {
    const parsed = parseCallback(body('1.000000000000000001'));
    assert.ok(parsed.ok);
    assert.equal(parsed.tx.amount, '1.000000000000000001');
  });

  it('refuses an amount that is no number, naming the field', () => {
    const parsed = parseCallback(body('"lots"'));
    assert.equal(parsed.ok, false);
    assert.match((parsed as { error: string }).error, /^amount: /);
  });
});
