import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, Connection } from '@temporalio/client';
import { request } from 'undici';
import { createIngressOps } from '../../src/ingress/ops.js';
import { createIngress } from '../../src/ingress/server.js';
import { createIngressMetrics } from '../../src/telemetry/ingress-metrics.js';
import { callbackSignature } from '../../src/provider/signing.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { depositCallback } from '../helpers/callback.js';

// GET /metrics on the ingress's operations port: each callback counted by what became of it, and the time to a
// durable signal, in Prometheus's text format.

async function post(baseUrl: string, body: string, signature: string) {
  const res = await request(`${baseUrl}/callbacks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-signature': signature },
    body,
  });
  await res.body.dump();
  return res.statusCode;
}

async function scrape(baseUrl: string): Promise<Map<string, number>> {
  const res = await request(`${baseUrl}/metrics`);
  assert.equal(res.statusCode, 200);
  assert.match(String(res.headers['content-type']), /^text\/plain/);
  const series = new Map<string, number>();
  for (const line of (await res.body.text()).split('\n')) {
    const match = /^(payflows_[^\s]+)\s+([\d.e+-]+)$/.exec(line);
    if (match) series.set(match[1]!, Number(match[2]));
  }
  return series;
}

describe('ingress metrics', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack();
  });
  after(async () => stack?.stop());

  it('counts callbacks by outcome and times the way to a durable signal', async () => {
    const before = await scrape(stack.opsUrl);
    assert.equal(
      before.get('payflows_callbacks_total{outcome="accepted"}'),
      0,
      'every outcome is exported from the start',
    );

    const good = depositCallback('WA_METRICS1');
    assert.equal(await post(stack.ingressUrl, good, callbackSignature(stack.secretKey, good)), 200);
    assert.equal(await post(stack.ingressUrl, good, callbackSignature('SK-OTHER', good)), 401);
    const malformed = depositCallback('WA_METRICS2', { amount: 'lots' });
    assert.equal(await post(stack.ingressUrl, malformed, callbackSignature(stack.secretKey, malformed)), 400);
    const big = depositCallback('WA_METRICS3', { message: 'x'.repeat(32 * 1024) });
    assert.equal(await post(stack.ingressUrl, big, callbackSignature(stack.secretKey, big)), 413);

    const after = await scrape(stack.opsUrl);
    const delta = (outcome: string) =>
      (after.get(`payflows_callbacks_total{outcome="${outcome}"}`) ?? 0) -
      (before.get(`payflows_callbacks_total{outcome="${outcome}"}`) ?? 0);
    assert.deepEqual(
      {
        accepted: delta('accepted'),
        bad_signature: delta('bad_signature'),
        malformed: delta('malformed'),
        too_large: delta('too_large'),
        temporal_unavailable: delta('temporal_unavailable'),
      },
      { accepted: 1, bad_signature: 1, malformed: 1, too_large: 1, temporal_unavailable: 0 },
    );
    assert.equal(after.get('payflows_callback_signal_seconds_count'), 1);
    assert.ok((after.get('payflows_callback_signal_seconds_sum') ?? 0) > 0);
    await stack.client.workflow
      .getHandle('wallet:WA_METRICS1')
      .terminate('test done')
      .catch(() => {});
  });

  it('counts callbacks that Temporal did not take', async () => {
    const connection = Connection.lazy({ address: '127.0.0.1:1', connectTimeout: 500 });
    const client = new Client({ connection });
    const metrics = createIngressMetrics();
    const app = createIngress({
      client,
      taskQueue: 'none',
      secretKey: 'SK-DOWN',
      maxBodyBytes: 16 * 1024,
      walletTimings: { pollIntervalMs: 60_000 },
      temporalTimeoutMs: 1_000,
      metrics,
    });
    const ops = createIngressOps({ client, metrics });
    const opsUrl = await ops.listen({ port: 0, host: '127.0.0.1' });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const addr = app.server.address();
    const url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
    try {
      const body = depositCallback('WA_METRICSDOWN');
      assert.equal(await post(url, body, callbackSignature('SK-DOWN', body)), 503);
      const series = await scrape(opsUrl);
      assert.equal(series.get('payflows_callbacks_total{outcome="temporal_unavailable"}'), 1);
      assert.equal(series.get('payflows_callback_signal_seconds_count'), 0);
    } finally {
      await app.close();
      await ops.close();
      await connection.close().catch(() => {});
    }
  });
});
