import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, Connection, WorkflowNotFoundError } from '@temporalio/client';
import { request } from 'undici';
import { createIngressOps } from '../../src/ingress/ops.js';
import { createIngress } from '../../src/ingress/server.js';
import { createIngressMetrics } from '../../src/telemetry/ingress-metrics.js';
import { callbackSignature } from '../../src/provider/signing.js';
import { type WalletResult, walletQuery, walletWorkflowId } from '../../workflows/wallet/messages.js';
import { eventually, startStack, type Stack } from '../helpers/stack.js';
import { walletSrn } from '../../src/provider/srn.js';
import { depositCallback } from '../helpers/callback.js';
import { resultWithin } from '../helpers/result.js';
import { openAsBefore } from '../helpers/wallet-opened-before.js';

async function post(baseUrl: string, body: string | Buffer, signature: string | undefined) {
  const res = await request(`${baseUrl}/callbacks`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(signature === undefined ? {} : { 'x-api-signature': signature }),
    },
    body,
  });
  return {
    status: res.statusCode,
    json: (await res.body.json()) as { error?: string; detail?: string; workflowIds?: string[] },
  };
}

describe('ingress: only verified, well-formed callbacks reach a workflow', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack();
  });
  after(async () => stack?.stop());

  async function assertNoWorkflow(walletId: string) {
    await assert.rejects(
      stack.client.workflow.getHandle(walletWorkflowId(walletId)).describe(),
      WorkflowNotFoundError,
      `no workflow for ${walletId}`,
    );
  }

  it('401 for a missing signature', async () => {
    const answer = await post(stack.ingressUrl, depositCallback('WA_UNSIGNED'), undefined);
    assert.equal(answer.status, 401);
    assert.match(answer.json.detail ?? '', /HMAC-SHA256/);
    await assertNoWorkflow('WA_UNSIGNED');
  });

  it('401 for a body tampered with after signing', async () => {
    const signed = depositCallback('WA_TAMPERED');
    const answer = await post(
      stack.ingressUrl,
      signed.replace('0.1', '100'),
      callbackSignature(stack.secretKey, signed),
    );
    assert.equal(answer.status, 401);
    await assertNoWorkflow('WA_TAMPERED');
  });

  it('401 for a signature made with another key', async () => {
    const body = depositCallback('WA_OTHERKEY');
    const answer = await post(stack.ingressUrl, body, callbackSignature('SK-SOMEONE-ELSE', body));
    assert.equal(answer.status, 401);
    await assertNoWorkflow('WA_OTHERKEY');
  });

  it('400 for signed bodies that are not JSON, miss fields, or name no wallet', async () => {
    const cases: Array<[string, string, RegExp]> = [
      ['WA_NOTJSON', '{"id":"TR_1", dest: wallet:WA_NOTJSON', /not JSON/],
      ['WA_NOAMOUNT', depositCallback('WA_NOAMOUNT', { amount: 'lots' }), /amount/],
      ['WA_BADID', depositCallback('WA_BADID', { id: 'XX_1' }), /id/],
      ['WA_NODEST', depositCallback('WA_NODEST', { dest: 'account:AC_1' }), /wallet SRN/],
      ['WA_PROTO', depositCallback('WA_PROTO', { currency: '__proto__' }), /currency/],
      ['WA_LOWER', depositCallback('WA_LOWER', { currency: 'btc' }), /currency/],
      // Past the bound of an amount (src/decimal.ts): refused here, not a 500 that is resent for ever.
      ['WA_HUGEAMOUNT', depositCallback('WA_HUGEAMOUNT', { amount: 1e80 }), /^amount: .*past the bound of an amount/],
    ];
    for (const [walletId, body, detail] of cases) {
      const answer = await post(stack.ingressUrl, body, callbackSignature(stack.secretKey, body));
      assert.equal(answer.status, 400, walletId);
      assert.match(answer.json.detail ?? '', detail, walletId);
      await assertNoWorkflow(walletId);
    }
  });

  it('413 for an oversized body', async () => {
    const body = depositCallback('WA_TOOBIG', { message: 'x'.repeat(32 * 1024) });
    const answer = await post(stack.ingressUrl, body, callbackSignature(stack.secretKey, body));
    assert.equal(answer.status, 413);
    await assertNoWorkflow('WA_TOOBIG');
  });

  it('200 only once the signal is accepted: a callback for a wallet not followed yet starts its workflow', async () => {
    const body = depositCallback('WA_STARTEDBYCB');
    const answer = await post(stack.ingressUrl, body, callbackSignature(stack.secretKey, body));
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.json.workflowIds, ['wallet:WA_STARTEDBYCB']);
    const state = await eventually(async () => {
      const queried = await stack.client.workflow.getHandle('wallet:WA_STARTEDBYCB').query(walletQuery);
      assert.equal(queried.stats.callbacks, 1);
      return queried;
    });
    assert.deepEqual(state.balances.BTC, { confirmed: '0.1', pending: '0' });
    await stack.client.workflow.getHandle('wallet:WA_STARTEDBYCB').terminate('test done');
  });

  it('health, on the operations port, says ok while Temporal answers', async () => {
    const res = await request(`${stack.opsUrl}/health`);
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
    const metrics = createIngressMetrics();
    const app = createIngress({
      client,
      taskQueue: 'none',
      secretKey: secret,
      maxBodyBytes: 16 * 1024,
      walletTimings: { pollIntervalMs: 60_000 },
      temporalTimeoutMs: 1_000,
      metrics,
    });
    const ops = createIngressOps({ client, metrics, healthIntervalMs: 200 });
    const opsUrl = await ops.listen({ port: 0, host: '127.0.0.1' });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const addr = app.server.address();
    const url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
    try {
      const body = depositCallback('WA_DOWN');
      const answer = await post(url, body, callbackSignature(secret, body));
      assert.equal(answer.status, 503);
      assert.match(answer.json.detail ?? '', /send it again/);
      const health = await request(`${opsUrl}/health`);
      assert.equal(health.statusCode, 503);
      await health.body.dump();
    } finally {
      await app.close();
      await ops.close();
      await connection.close().catch(() => {});
    }
  });
});

describe("ingress: every wallet a transaction touches, by id (wallets opened before one workflow per wallet), and wallets that are not this account's", () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ pollIntervalMs: 300 });
  });
  after(async () => stack?.stop());

  it('a transfer between two of our wallets reaches both: the source pays, the destination receives', async () => {
    const payer = await openAsBefore(stack, `payer-${Date.now()}`);
    const payee = await openAsBefore(stack, `payee-${Date.now()}`);
    const body = depositCallback(payee.walletId, { id: 'TR_BETWEEN1', source: walletSrn(payer.walletId), amount: 0.3 });
    const answer = await post(stack.ingressUrl, body, callbackSignature(stack.secretKey, body));
    assert.equal(answer.status, 200);
    assert.deepEqual(
      answer.json.workflowIds?.sort(),
      [walletWorkflowId(payer.walletId), walletWorkflowId(payee.walletId)].sort(),
    );
    await eventually(async () => {
      assert.deepEqual((await stack.wallets.state(payee.walletId)).balances.BTC, { confirmed: '0.3', pending: '0' });
      assert.deepEqual((await stack.wallets.state(payer.walletId)).balances.BTC, { confirmed: '-0.3', pending: '0' });
    });
    for (const wallet of [payer, payee])
      await stack.client.workflow.getHandle(walletWorkflowId(wallet.walletId)).terminate('test done');
  });

  it('a signed callback for a wallet the provider does not know costs a few polls, then its workflow ends', async () => {
    const body = depositCallback('WA_NOSUCHWALLET');
    const answer = await post(stack.ingressUrl, body, callbackSignature(stack.secretKey, body));
    assert.equal(answer.status, 200);
    const handle = stack.client.workflow.getHandle('wallet:WA_NOSUCHWALLET');
    const { ledger, ...result } = (await resultWithin(handle.result(), handle.workflowId)) as WalletResult;
    assert.deepEqual(result, { outcome: 'UNKNOWN_WALLET', walletId: 'WA_NOSUCHWALLET', callbacks: 1, inbox: [] });
    // What it counted, for a follower that a later callback starts (workflows/wallet/follower-client.ts).
    assert.deepEqual(ledger?.stats.callbacks, 1);
    const { events } = await handle.fetchHistory();
    // The first poll at once (a local activity's marker), then the watch's, each a not-found answer.
    const polls = (events ?? []).filter(
      (e) =>
        e.markerRecordedEventAttributes?.markerName === 'core_local_activity' ||
        e.activityTaskScheduledEventAttributes?.activityType?.name === 'watchWalletTransactions',
    );
    assert.equal(polls.length, 3);
  });

  it('503 when one of two wallets could not be told, so that the resend reaches both; the other counts the repeat once', async () => {
    const payer = await openAsBefore(stack, `half-a-${Date.now()}`);
    const payee = await openAsBefore(stack, `half-b-${Date.now()}`);
    // A client whose signals to the payee's wallet fail, as when Temporal refuses one of two calls.
    let failPayee = true;
    const refused = () => Promise.reject(new Error('UNAVAILABLE: the frontend is overloaded'));
    const flaky = new Proxy(stack.client.workflow, {
      get(target, prop, receiver) {
        if (prop === 'getHandle')
          return (workflowId: string, ...rest: never[]) => {
            const handle = target.getHandle(workflowId, ...rest);
            if (!failPayee || workflowId !== walletWorkflowId(payee.walletId)) return handle;
            return new Proxy(handle, { get: (h, p, r) => (p === 'signal' ? refused : Reflect.get(h, p, r)) });
          };
        if (prop !== 'signalWithStart') return Reflect.get(target, prop, receiver);
        return (name: string, options: { workflowId: string }) => {
          if (failPayee && options.workflowId === walletWorkflowId(payee.walletId)) return refused();
          return target.signalWithStart(name, options as never);
        };
      },
    });
    const client = new Proxy(stack.client, { get: (t, p, r) => (p === 'workflow' ? flaky : Reflect.get(t, p, r)) });
    const app = createIngress({
      client,
      taskQueue: stack.taskQueue,
      secretKey: stack.secretKey,
      maxBodyBytes: 16 * 1024,
      walletTimings: { pollIntervalMs: 300 },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const addr = app.server.address();
    const url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
    try {
      const body = depositCallback(payee.walletId, { id: 'TR_HALFWAY1', source: walletSrn(payer.walletId), amount: 1 });
      const first = await post(url, body, callbackSignature(stack.secretKey, body));
      assert.equal(first.status, 503);
      assert.match(first.json.detail ?? '', new RegExp(walletWorkflowId(payee.walletId)));
      failPayee = false;
      const resend = await post(url, body, callbackSignature(stack.secretKey, body));
      assert.equal(resend.status, 200);
      await eventually(async () => {
        const payerState = await stack.wallets.state(payer.walletId);
        assert.deepEqual(payerState.balances.BTC, { confirmed: '-1', pending: '0' });
        assert.equal(payerState.stats.duplicates, 1);
        assert.deepEqual((await stack.wallets.state(payee.walletId)).balances.BTC, { confirmed: '1', pending: '0' });
      });
    } finally {
      await app.close();
      for (const wallet of [payer, payee])
        await stack.client.workflow.getHandle(walletWorkflowId(wallet.walletId)).terminate('test done');
    }
  });
});

describe('ingress: a wallet’s own workflow, by the name its callback URL carries', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack();
  });
  after(async () => stack?.stop());

  const postTo = async (url: string, body: string) => {
    const res = await request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-signature': callbackSignature(stack.secretKey, body) },
      body,
    });
    return { status: res.statusCode, json: (await res.body.json()) as { detail?: string; workflowIds?: string[] } };
  };
  const callbackUrlOf = (walletId: string) => stack.sandbox.ctx.store.state.wallets[walletId]!.callbackUrl!;

  it('a callback at the wallet’s URL reaches its workflow, and only it', async () => {
    const wallet = await stack.wallets.open({ name: `named-${Date.now()}` });
    const body = depositCallback(wallet.walletId, { id: 'TR_NAMED1', amount: 0.4 });
    const answer = await postTo(callbackUrlOf(wallet.walletId), body);
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.json.workflowIds, [wallet.walletWorkflowId]);
    await eventually(async () =>
      assert.deepEqual((await stack.wallets.state(wallet.walletId)).balances.BTC, { confirmed: '0.4', pending: '0' }),
    );
    await stack.client.workflow.getHandle(wallet.walletWorkflowId).terminate('test done');
  });

  it('a signed transaction of other wallets sent to a wallet’s URL is not counted there, nor starts anything', async () => {
    const wallet = await stack.wallets.open({ name: `misrouted-${Date.now()}` });
    const other = depositCallback('WA_SOMEONEELSE', { id: 'TR_MISROUTED1', amount: 7 });
    assert.equal((await postTo(callbackUrlOf(wallet.walletId), other)).status, 200);
    // A callback of its own after it: once counted, the other was taken in before it and dropped.
    const own = depositCallback(wallet.walletId, { id: 'TR_MISROUTED2', amount: 0.1 });
    assert.equal((await postTo(callbackUrlOf(wallet.walletId), own)).status, 200);
    const state = await eventually(async () => {
      const queried = await stack.wallets.state(wallet.walletId);
      assert.equal(queried.stats.callbacks, 1);
      return queried;
    });
    assert.deepEqual(Object.keys(state.balances), ['BTC']);
    assert.deepEqual(state.balances.BTC, { confirmed: '0.1', pending: '0' });
    await assertNoWorkflowFor(stack, 'WA_SOMEONEELSE');
    await stack.client.workflow.getHandle(wallet.walletWorkflowId).terminate('test done');
  });

  it('400 for a callback URL whose wallet parameter names no wallet, and nothing is signalled', async () => {
    const wallet = await stack.wallets.open({ name: `emptyname-${Date.now()}` });
    const body = depositCallback(wallet.walletId, { id: 'TR_EMPTYNAME1' });
    for (const query of ['?wallet=', '?wallet=a&wallet=b']) {
      const answer = await postTo(`${stack.ingressUrl}/callbacks${query}`, body);
      assert.equal(answer.status, 400, query);
      assert.match(answer.json.detail ?? '', /wallet names one wallet/);
    }
    assert.equal((await stack.wallets.state(wallet.walletId)).stats.callbacks, 0);
    await assertNoWorkflowFor(stack, wallet.walletId);
    await stack.client.workflow.getHandle(wallet.walletWorkflowId).terminate('test done');
  });

  it('when the wallet’s workflow was terminated, its callback starts a follower by the wallet’s id', async () => {
    const wallet = await stack.wallets.open({ name: `terminated-${Date.now()}` });
    await stack.client.workflow.getHandle(wallet.walletWorkflowId).terminate('an operator stopped it');
    const body = depositCallback(wallet.walletId, { id: 'TR_AFTERTERM1', amount: 0.2 });
    const answer = await postTo(callbackUrlOf(wallet.walletId), body);
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.json.workflowIds, [walletWorkflowId(wallet.walletId)]);
    const follower = stack.client.workflow.getHandle(walletWorkflowId(wallet.walletId));
    await eventually(async () =>
      assert.deepEqual((await follower.query(walletQuery)).balances.BTC, { confirmed: '0.2', pending: '0' }),
    );
    // The client that opened it no longer points at the run the operator terminated.
    assert.equal(await stack.wallets.workflowIdOf(wallet.walletId), walletWorkflowId(wallet.walletId));
    assert.deepEqual((await stack.wallets.state(wallet.walletId)).balances.BTC, { confirmed: '0.2', pending: '0' });
    await follower.terminate('test done');
  });

  it('a transfer between two wallets through the sandbox: each is called back at its own URL and counts its side', async () => {
    const payer = await stack.wallets.open({ name: `named-payer-${Date.now()}` });
    const payee = await stack.wallets.open({ name: `named-payee-${Date.now()}` });
    await stack.operator('POST', `/sandbox/wallets/${payer.walletId}/deposits`, {
      currency: 'BTC',
      amount: 1,
      confirmed: true,
    });
    const moved = await stack.operator('POST', `/sandbox/wallets/${payer.walletId}/transfers`, {
      to: payee.walletId,
      currency: 'BTC',
      amount: '0.3',
    });
    assert.equal(moved.status, 200);
    await eventually(async () => {
      assert.deepEqual((await stack.wallets.state(payer.walletId)).balances.BTC, { confirmed: '0.7', pending: '0' });
      assert.deepEqual((await stack.wallets.state(payee.walletId)).balances.BTC, { confirmed: '0.3', pending: '0' });
    });
    // Each heard of it by callback, not by a poll.
    for (const wallet of [payer, payee]) {
      const state = await stack.wallets.state(wallet.walletId);
      assert.equal(state.stats.recoveredByPoll, 0, wallet.walletWorkflowId);
      await stack.client.workflow.getHandle(wallet.walletWorkflowId).terminate('test done');
    }
  });
});

async function assertNoWorkflowFor(stack: Stack, walletId: string) {
  await assert.rejects(
    stack.client.workflow.getHandle(walletWorkflowId(walletId)).describe(),
    WorkflowNotFoundError,
    `no follower for ${walletId}`,
  );
}
