import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DefaultLogger } from '@temporalio/worker';
import {
  ensurePrometheus,
  queryByInstance,
  type RunningPrometheus,
  startPrometheus,
} from '../../scripts/lib/prometheus.js';
import { freePort } from '../../src/temporal/ports.js';
import { eventually, startStack, type Stack } from '../helpers/stack.js';

// Prometheus itself (Debian's package) scraping a worker and an ingress: after a wallet flow ran,
// a series from each is in its HTTP API, and the shipped alert rules are loaded.

describe('Prometheus scrapes the worker and the ingress', () => {
  let stack: Stack;
  let prometheus: RunningPrometheus;
  let dir: string;
  let worker: string;
  let ingress: string;
  before(async () => {
    ensurePrometheus((line) => console.log(`[prometheus] ${line}`));
    const metricsPort = await freePort();
    worker = `127.0.0.1:${metricsPort}`;
    stack = await startStack({
      runtime: {
        logger: new DefaultLogger('ERROR'),
        telemetryOptions: {
          metrics: { prometheus: { bindAddress: worker, countersTotalSuffix: true, useSecondsForDurations: true } },
        },
      },
    });
    ingress = stack.opsUrl.replace('http://', '');
    dir = mkdtempSync(join(tmpdir(), 'payflows-prometheus-'));
    prometheus = await startPrometheus({
      dir,
      port: await freePort(),
      workers: [worker],
      ingresses: [ingress],
      intervalSeconds: 1,
    });
  });
  after(async () => {
    await prometheus?.stop();
    await stack?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('holds a series from each after a wallet flow, and has the alert rules', async () => {
    const { walletId, walletWorkflowId: workflowId } = await stack.wallets.open({ name: `prometheus-${Date.now()}` });
    await stack.operator('POST', `/sandbox/wallets/${walletId}/deposits`, { currency: 'BTC', amount: 0.25 });
    await eventually(async () =>
      assert.deepEqual((await stack.wallets.state(walletId)).balances.BTC, { confirmed: '0', pending: '0.25' }),
    );

    await eventually(
      async () => {
        const accepted = await queryByInstance(
          prometheus.url,
          'payflows_callbacks_total{job="payflows-ingress",outcome="accepted"}',
        );
        assert.ok((accepted.get(ingress) ?? 0) >= 1, `ingress series: ${JSON.stringify([...accepted])}`);
        const started = await queryByInstance(
          prometheus.url,
          'sum by (instance) (payflows_processes_started_total{job="payflows-worker"})',
        );
        assert.ok((started.get(worker) ?? 0) >= 1, `worker series: ${JSON.stringify([...started])}`);
      },
      30_000,
      500,
    );

    const res = await fetch(`${prometheus.url}/api/v1/rules`);
    const rules = (await res.json()) as { data: { groups: Array<{ rules: Array<{ name: string }> }> } };
    const names = rules.data.groups.flatMap((g) => g.rules.map((r) => r.name));
    assert.ok(names.includes('PayflowsTemporalUnavailable') && names.includes('PayflowsTargetDown'), names.join(', '));
    await stack.client.workflow.getHandle(workflowId).terminate('test done');
  });
});
