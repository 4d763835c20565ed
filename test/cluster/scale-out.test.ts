import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@temporalio/client';
import { request } from 'undici';
import { WalletsClient } from '../../workflows/wallet/client.js';
import { callbackSignature } from '../../src/provider/signing.js';
import { add, decimal } from '../../src/decimal.js';
import { startProcess, stopProcess } from '../../scripts/lib/product-processes.js';
import { queryByInstance } from '../../scripts/lib/prometheus.js';
import { eventually } from '../helpers/stack.js';
import { type ClusterDescription, clusterClient, clusterDescription } from '../helpers/cluster.js';
import { walletCallbackUrl } from '../../workflows/wallet/messages.js';

// The production topology at work: wallets fed through both ingress replicas while one of the two
// workers is SIGKILLed and started again; every deposit counted once. Then Prometheus has seen
// every worker, every ingress and the Temporal server, and a series of the product's from each.

const WALLETS = 6;
const DEPOSITS = 4;

describe('scale-out on the PostgreSQL cluster', () => {
  let cluster: ClusterDescription;
  let client: Client;
  let wallets: WalletsClient;
  // worker-1 started again by the first test; stopped once every test has seen it.
  let restarted: Awaited<ReturnType<typeof startProcess>> | undefined;
  before(async () => {
    cluster = clusterDescription();
    client = await clusterClient(cluster);
    wallets = new WalletsClient(client, { taskQueue: cluster.taskQueue, pollIntervalMs: 3_600_000 });
  });
  after(async () => {
    if (restarted) await stopProcess(restarted);
    await client?.connection.close();
  });

  async function op<T>(path: string, body: unknown): Promise<T> {
    const res = await request(`${cluster.sandboxUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await res.body.json()) as T;
    assert.equal(res.statusCode, 200, JSON.stringify(json));
    return json;
  }

  /** A callback at the wallet's own callback URL on `ingress`. */
  async function callback(ingress: string, name: string, tx: unknown): Promise<number> {
    const body = JSON.stringify(tx);
    const res = await request(walletCallbackUrl(`${ingress}/callbacks`, name), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-signature': callbackSignature(cluster.secretKey, body) },
      body,
    });
    await res.body.dump();
    return res.statusCode;
  }

  it('deposits through both ingress replicas, a worker killed and restarted midway: each counted once', async () => {
    const run = randomUUID().slice(0, 8);
    const opened = await Promise.all(
      Array.from({ length: WALLETS }, (_, i) => wallets.open({ name: `scale-${run}-${i}` })),
    );
    const expected = new Map<string, string>();
    const workerSpec = cluster.processes.find((p) => p.name === 'worker-1')!;
    const workerPid = workerSpec.pid;
    try {
      for (let round = 0; round < DEPOSITS; round++) {
        if (round === DEPOSITS / 2) {
          // The crash: no drain, no goodbye. The other worker carries on meanwhile.
          process.kill(workerPid, 'SIGKILL');
        }
        await Promise.all(
          opened.map(async ({ walletId }, index) => {
            // Thousandths, as decimal strings: the balances are exact (docs/money.md).
            const amount = decimal(`${(index + 1) * 10 + round}e-3`);
            // The sandbox sends the callback to the ingress the wallet was opened with…
            const { transaction } = await op<{ transaction: { id: string } }>(`/sandbox/wallets/${walletId}/deposits`, {
              currency: 'BTC',
              amount,
              confirmed: true,
            });
            expected.set(walletId, add(expected.get(walletId) ?? '0', amount));
            // …and the same callback also arrives at the other replica, as a resend would.
            const tx = { ...transaction };
            assert.equal(await callback(cluster.ingressUrls[(index + round) % 2]!, `scale-${run}-${index}`, tx), 200);
          }),
        );
        if (round === DEPOSITS / 2)
          restarted = await startProcess({ ...workerSpec, log: `${workerSpec.log}.restarted` });
      }
      for (const { walletId } of opened) {
        await eventually(
          async () => {
            const view = await wallets.state(walletId);
            assert.deepEqual(view.balances.BTC, { confirmed: expected.get(walletId), pending: '0' }, walletId);
          },
          60_000,
          500,
        );
      }
    } finally {
      for (const { walletWorkflowId: workflowId } of opened)
        await client.workflow
          .getHandle(workflowId)
          .terminate('test done')
          .catch(() => {});
    }
  });

  it('Prometheus scrapes both workers, both ingress replicas and the Temporal server, with the product series of each', async () => {
    // A provider call after worker-1's restart: its counter started again from nothing, and the
    // wallets of the first test may all have been created on it before the kill.
    await wallets.open({ name: `scale-metrics-${randomUUID().slice(0, 8)}` });
    const targets = [
      ...cluster.workerMetrics,
      ...cluster.ingressOpsUrls.map((u) => u.replace('http://', '')),
      ...cluster.temporal.metrics,
    ];
    await eventually(
      async () => {
        const up = await queryByInstance(cluster.prometheusUrl, 'up');
        for (const target of targets) assert.ok(up.has(target), `${target} is a scrape target`);
        // worker-1 was killed and started again on the same port: up again.
        for (const target of targets) assert.equal(up.get(target), 1, `${target} is up`);
        const callbacks = await queryByInstance(
          cluster.prometheusUrl,
          'sum by (instance) (payflows_callbacks_total{outcome="accepted"})',
        );
        for (const opsUrl of cluster.ingressOpsUrls)
          assert.ok((callbacks.get(opsUrl.replace('http://', '')) ?? 0) > 0, `${opsUrl} counted callbacks`);
        const calls = await queryByInstance(cluster.prometheusUrl, 'sum by (instance) (payflows_provider_calls_total)');
        assert.ok(
          [...calls.values()].some((v) => v > 0),
          'the workers counted provider calls',
        );
      },
      60_000,
      1_000,
    );
  });
});
