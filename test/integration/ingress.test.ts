import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, Connection, WorkflowNotFoundError } from '@temporalio/client';
import { request } from 'undici';
import { createIngress } from '../../src/ingress/server.js';
import { callbackSignature } from '../../src/provider/signing.js';
import { walletQuery, walletWorkflowId } from '../../workflows/messages/wallet.js';
import { eventually, startStack, type Stack } from '../helpers/stack.js';

const callback = (walletId: string, over: Record<string, unknown> = {}) =>
  JSON.stringify({ id: 'TR_INGRESS1', createdAt: 1_700_000_000_000, source: 'bitcoin:EXTERNAL', dest: `wallet:${walletId}`, currency: 'BTC', amount: 0.1, status: 'CONFIRMED', metadata: {}, tags: [], ...over });

async function post(baseUrl: string, body: string | Buffer, signature: string | undefined) {
  const res = await request(`${baseUrl}/callbacks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(signature === undefined ? {} : { 'x-api-signature': signature }) },
    body,
  });
  return { status: res.statusCode, json: (await res.body.json()) as { error?: string; detail?: string; workflowId?: string } };
}

describe('ingress: only verified, well-formed callbacks reach a workflow', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack();
  });
  after(async () => stack?.stop());

  async function assertNoWorkflow(walletId: string) {
    await assert.rejects(stack.client.workflow.getHandle(walletWorkflowId(walletId)).describe(), WorkflowNotFoundError, `no workflow for ${walletId}`);
  }

  it('401 for a missing signature', async () => {
    const r = await post(stack.ingressUrl, callback('WA_UNSIGNED'), undefined);
    assert.equal(r.status, 401);
    assert.match(r.json.detail ?? '', /HMAC-SHA256/);
    await assertNoWorkflow('WA_UNSIGNED');
  });

  it('401 for a body tampered with after signing', async () => {
    const signed = callback('WA_TAMPERED');
    const r = await post(stack.ingressUrl, signed.replace('0.1', '100'), callbackSignature(stack.secretKey, signed));
    assert.equal(r.status, 401);
    await assertNoWorkflow('WA_TAMPERED');
  });

  it('401 for a signature made with another key', async () => {
    const body = callback('WA_OTHERKEY');
    const r = await post(stack.ingressUrl, body, callbackSignature('SK-SOMEONE-ELSE', body));
    assert.equal(r.status, 401);
    await assertNoWorkflow('WA_OTHERKEY');
  });

  it('400 for signed bodies that are not JSON, miss fields, or name no wallet', async () => {
    const cases: Array<[string, string, RegExp]> = [
      ['WA_NOTJSON', '{"id":"TR_1", dest: wallet:WA_NOTJSON', /not JSON/],
      ['WA_NOAMOUNT', callback('WA_NOAMOUNT', { amount: 'lots' }), /amount/],
      ['WA_BADID', callback('WA_BADID', { id: 'XX_1' }), /id/],
      ['WA_NODEST', callback('WA_NODEST', { dest: 'account:AC_1' }), /wallet SRN/],
      ['WA_PROTO', callback('WA_PROTO', { currency: '__proto__' }), /currency/],
      ['WA_LOWER', callback('WA_LOWER', { currency: 'btc' }), /currency/],
    ];
    for (const [walletId, body, detail] of cases) {
      const r = await post(stack.ingressUrl, body, callbackSignature(stack.secretKey, body));
      assert.equal(r.status, 400, walletId);
      assert.match(r.json.detail ?? '', detail, walletId);
      await assertNoWorkflow(walletId);
    }
  });

  it('413 for an oversized body', async () => {
    const body = callback('WA_TOOBIG', { message: 'x'.repeat(32 * 1024) });
    const r = await post(stack.ingressUrl, body, callbackSignature(stack.secretKey, body));
    assert.equal(r.status, 413);
    await assertNoWorkflow('WA_TOOBIG');
  });

  it('200 only once the signal is accepted: a callback for an unknown wallet starts its workflow', async () => {
    const body = callback('WA_STARTEDBYCB');
    const r = await post(stack.ingressUrl, body, callbackSignature(stack.secretKey, body));
    assert.equal(r.status, 200);
    assert.equal(r.json.workflowId, 'wallet:WA_STARTEDBYCB');
    const s = await eventually(() => stack.client.workflow.getHandle('wallet:WA_STARTEDBYCB').query(walletQuery).then((s) => {
      assert.equal(s.stats.callbacks, 1);
      return s;
    }));
    assert.deepEqual(s.balances.BTC, { confirmed: 0.1, pending: 0 });
    await stack.client.workflow.getHandle('wallet:WA_STARTEDBYCB').terminate('test done');
  });

  it('health says ok while Temporal answers', async () => {
    const res = await request(`${stack.ingressUrl}/health`);
    assert.equal(res.statusCode, 200);
    assert.deepEqual(await res.body.json(), { status: 'ok', temporal: 'ok' });
  });
});

describe('ingress: Temporal unreachable', () => {
  it('answers 503 so that a resend succeeds later, and health says so', async () => {
    // A client whose server does not exist: every call fails as when Temporal is down.
    const connection = Connection.lazy({ address: '127.0.0.1:1', connectTimeout: 500 });
    const client = new Client({ connection });
    const secret = 'SK-DOWN';
    const app = createIngress({ client, taskQueue: 'none', secretKey: secret, maxBodyBytes: 16 * 1024, walletPollIntervalMs: 60_000, temporalTimeoutMs: 1_000 });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const addr = app.server.address();
    const url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
    try {
      const body = callback('WA_DOWN');
      const r = await post(url, body, callbackSignature(secret, body));
      assert.equal(r.status, 503);
      assert.match(r.json.detail ?? '', /send it again/);
      const health = await request(`${url}/health`);
      assert.equal(health.statusCode, 503);
      await health.body.dump();
    } finally {
      await app.close();
      await connection.close().catch(() => {});
    }
  });
});
