import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { WorkflowNotFoundError } from '@temporalio/client';
import type { FastifyInstance } from 'fastify';
import { request } from 'undici';
import { loadConfig } from '../../src/config.js';
import { createIngress } from '../../src/ingress/server.js';
import { callbackSignature } from '../../src/provider/signing.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { walletWorkflowId } from '../../workflows/wallet/messages.js';
import { depositCallback } from '../helpers/callback.js';

// The public ingress's small doors: a rotation of the provider's secret loses no callback, a
// slow sender cannot keep a connection open, and connections past the limit are refused.

async function listen(app: FastifyInstance): Promise<{ url: string; port: number }> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return { url: `http://127.0.0.1:${port}`, port };
}

describe('ingress: callback secrets during a rotation', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack();
  });
  after(async () => stack?.stop());

  it('accepts callbacks signed with any secret of the list and refuses others, signalling nothing', async () => {
    const [newest, previous] = ['SK-NEW-ROTATED', stack.secretKey];
    const app = createIngress({
      client: stack.client,
      taskQueue: stack.taskQueue,
      secretKey: newest,
      callbackSecrets: [newest, previous],
      maxBodyBytes: 16 * 1024,
      walletTimings: { pollIntervalMs: 3_600_000 },
    });
    const { url } = await listen(app);
    try {
      for (const [walletId, secret, status] of [
        ['WA_ROTNEW', newest, 200],
        ['WA_ROTOLD', previous, 200],
        ['WA_ROTOTHER', 'SK-NOT-LISTED', 401],
      ] as const) {
        const body = depositCallback(walletId);
        const res = await request(`${url}/callbacks`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-signature': callbackSignature(secret, body) },
          body,
        });
        await res.body.dump();
        assert.equal(res.statusCode, status, walletId);
      }
      await assert.rejects(stack.client.workflow.getHandle('wallet:WA_ROTOTHER').describe(), WorkflowNotFoundError);
    } finally {
      await app.close();
      for (const id of ['WA_ROTNEW', 'WA_ROTOLD'])
        await stack.client.workflow
          .getHandle(walletWorkflowId(id))
          .terminate('test done')
          .catch(() => {});
    }
  });

  it('reads the list from PROVIDER_CALLBACK_SECRETS, newest first, defaulting to the secret key', () => {
    assert.deepEqual(loadConfig({ PROVIDER_SECRET_KEY: 'SK-A' }).ingress.callbackSecrets, ['SK-A']);
    assert.deepEqual(
      loadConfig({ PROVIDER_SECRET_KEY: 'SK-A', PROVIDER_CALLBACK_SECRETS: 'SK-B, SK-A' }).ingress.callbackSecrets,
      ['SK-B', 'SK-A'],
    );
  });
});

describe('ingress: a slow sender', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack();
  });
  after(async () => stack?.stop());

  it('is cut off after INGRESS_REQUEST_TIMEOUT while others are served', async () => {
    const app = createIngress({
      client: stack.client,
      taskQueue: stack.taskQueue,
      secretKey: stack.secretKey,
      maxBodyBytes: 16 * 1024,
      walletTimings: { pollIntervalMs: 3_600_000 },
      requestTimeoutMs: 1_000,
    });
    const { url, port } = await listen(app);
    try {
      const socket = connect(port, '127.0.0.1');
      let answer = '';
      socket.on('data', (d) => (answer += d.toString()));
      const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now())));
      socket.write(
        'POST /callbacks HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{',
      );
      // One byte every 200 ms: the whole body would take 100 s.
      const started = Date.now();
      const trickle = setInterval(() => socket.writable && socket.write(' '), 200);
      // Meanwhile a well-behaved request is served (unsigned: answered without Temporal).
      const other = await request(`${url}/callbacks`, { method: 'POST', body: '{}' });
      await other.body.dump();
      assert.equal(other.statusCode, 401);
      const at = await closed;
      clearInterval(trickle);
      assert.ok(at - started < 8_000, `the slow connection stayed open ${at - started} ms`);
      assert.match(answer, /^HTTP\/1\.1 408/, 'answered 408 Request Timeout');
    } finally {
      await app.close();
    }
  });

  it('refuses a connection past INGRESS_MAX_CONNECTIONS without an answer, and serves one again once a connection closes', async () => {
    const app = createIngress({
      client: stack.client,
      taskQueue: stack.taskQueue,
      secretKey: stack.secretKey,
      maxBodyBytes: 16 * 1024,
      walletTimings: { pollIntervalMs: 3_600_000 },
      maxConnections: 2,
    });
    const { port } = await listen(app);
    const open = () =>
      new Promise<number>((resolve, reject) => app.server.getConnections((err, n) => (err ? reject(err) : resolve(n))));
    const until = async (count: number) => {
      for (const started = Date.now(); (await open()) !== count; await new Promise((r) => setTimeout(r, 20))) {
        if (Date.now() - started > 3_000) assert.fail(`the ingress holds ${await open()} connections, not ${count}`);
      }
    };
    // A connection that sends an unsigned callback (answered without Temporal): what it was answered, once closed.
    const ask = (socket: Socket) => {
      let answer = '';
      socket.on('data', (d) => (answer += d.toString()));
      socket.on('error', () => {});
      socket.write('POST /callbacks HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      return new Promise<string>((resolve) => socket.on('close', () => resolve(answer)));
    };
    const idle = [connect(port, '127.0.0.1'), connect(port, '127.0.0.1')];
    try {
      // Two idle connections (the headers timeout would close them after 5 s) fill the limit.
      await until(2);
      assert.equal(await ask(connect(port, '127.0.0.1')), '', 'the third connection is closed without an answer');
      assert.equal(await open(), 2);
      const first = idle.shift()!;
      first.destroy();
      await until(1);
      assert.match(await ask(connect(port, '127.0.0.1')), /^HTTP\/1\.1 401 /, 'a connection is served again');
    } finally {
      for (const socket of idle) socket.destroy();
      await app.close();
    }
  });

  it('has its limits from the environment, with a clear error for a bad value', () => {
    const config = loadConfig({ INGRESS_REQUEST_TIMEOUT: '3s', INGRESS_MAX_CONNECTIONS: '50' });
    assert.equal(config.ingress.requestTimeoutMs, 3_000);
    assert.equal(config.ingress.maxConnections, 50);
    assert.throws(() => loadConfig({ INGRESS_REQUEST_TIMEOUT: 'soon' }), /INGRESS_REQUEST_TIMEOUT/);
    assert.throws(() => loadConfig({ INGRESS_MAX_CONNECTIONS: '0' }), /INGRESS_MAX_CONNECTIONS/);
  });
});
