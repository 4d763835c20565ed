import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Client } from '@temporalio/client';
import { request } from 'undici';
import { loadConfig } from '../../src/config.js';
import { createIngressOps } from '../../src/ingress/ops.js';
import { createIngress } from '../../src/ingress/server.js';
import { createIngressMetrics } from '../../src/telemetry/ingress-metrics.js';

// The ingress's /health and /metrics are for the orchestrator and Prometheus, not the provider:
// they are served on a port of their own (INGRESS_OPS_PORT), and /health answers from a check of
// Temporal made in the background, so that a flood of /health requests never reaches Temporal.

/** A client whose Temporal answers (or not, as `up` says), counting how often it is asked. */
function fakeClient() {
  const state = { up: true, asked: 0 };
  const client = {
    withDeadline: <T>(_deadline: number, fn: () => Promise<T>) => fn(),
    workflowService: {
      getSystemInfo: async () => {
        state.asked += 1;
        if (!state.up) throw new Error('unavailable');
        return {};
      },
    },
  } as unknown as Client;
  return { client, state };
}

const listen = async (app: { listen(o: object): Promise<string> }) => app.listen({ port: 0, host: '127.0.0.1' });

describe('ingress operations port: /health and /metrics', () => {
  it('answers /health from a check refreshed in the background, not one per request', async () => {
    const { client, state } = fakeClient();
    const ops = createIngressOps({ client, metrics: createIngressMetrics(), healthIntervalMs: 200 });
    const url = await listen(ops);
    try {
      await new Promise((r) => setTimeout(r, 50));
      const askedBefore = state.asked;
      for (let i = 0; i < 25; i++) {
        const res = await request(`${url}/health`);
        assert.equal(res.statusCode, 200);
        assert.deepEqual(await res.body.json(), { status: 'ok', temporal: 'ok' });
      }
      assert.ok(
        state.asked - askedBefore <= 1,
        `Temporal was asked ${state.asked - askedBefore} times for 25 requests`,
      );
      // Temporal goes away: the next background check says so.
      state.up = false;
      await new Promise((r) => setTimeout(r, 500));
      const down = await request(`${url}/health`);
      assert.equal(down.statusCode, 503);
      assert.deepEqual(await down.body.json(), { status: 'degraded', temporal: 'unreachable' });
      const metrics = await request(`${url}/metrics`);
      assert.equal(metrics.statusCode, 200);
      assert.match(await metrics.body.text(), /payflows_callbacks_total\{outcome="accepted"\} 0/);
    } finally {
      await ops.close();
    }
    const asked = state.asked;
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(state.asked, asked, 'closed, it checks no more');
  });

  it('the callback port serves callbacks only: /health and /metrics are not there', async () => {
    const { client } = fakeClient();
    const app = createIngress({
      client,
      taskQueue: 'q',
      secretKey: 'SK',
      maxBodyBytes: 16 * 1024,
      walletTimings: { pollIntervalMs: 60_000 },
    });
    const url = await listen(app);
    try {
      for (const path of ['/health', '/metrics']) {
        const res = await request(`${url}${path}`);
        await res.body.dump();
        assert.equal(res.statusCode, 404, path);
      }
    } finally {
      await app.close();
    }
  });

  it('takes its port and host from INGRESS_OPS_PORT and INGRESS_OPS_HOST, refusing a bad one or the callback port', () => {
    assert.deepEqual(loadConfig({}).ingress.ops, { host: '127.0.0.1', port: 4021 });
    assert.deepEqual(loadConfig({ INGRESS_OPS_PORT: '9400', INGRESS_OPS_HOST: '0.0.0.0' }).ingress.ops, {
      host: '0.0.0.0',
      port: 9400,
    });
    assert.throws(() => loadConfig({ INGRESS_OPS_PORT: 'x' }), /INGRESS_OPS_PORT: /);
    assert.throws(
      () => loadConfig({ INGRESS_PORT: '5000', INGRESS_OPS_PORT: '5000' }),
      /INGRESS_OPS_PORT: .*INGRESS_PORT/,
    );
  });
});
