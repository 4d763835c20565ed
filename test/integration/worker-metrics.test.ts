import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { request } from 'undici';
import { ProvisioningClient } from '../../workflows/provisioning/client.js';
import { generateClientSecret } from '../../src/provider/client-token.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { workerRuntimeOptions } from '../../src/telemetry/runtime.js';
import { freePort } from '../../src/temporal/ports.js';
import { eventually, startStack, type Stack } from '../helpers/stack.js';
import { resultWithin } from '../helpers/result.js';
import { provisioningWorkflowId } from '../../workflows/provisioning/messages.js';

// The worker's one Prometheus endpoint: the SDK's own metrics and the product's, emitted through
// the same meter, after a real process ran; and the SDK's logs as JSON lines with the ids.

/** Asserts a series is present without printing the whole exposition on failure. */
function expectSeries(text: string, pattern: RegExp): void {
  const names = [
    ...new Set(
      text
        .split('\n')
        .filter((l) => l.startsWith('payflows_'))
        .map((l) => l.split('{')[0]),
    ),
  ];
  assert.ok(pattern.test(text), `${pattern} not among the product's series: ${names.join(', ')}`);
}

describe('worker telemetry', () => {
  let stack: Stack;
  let metricsUrl: string;
  const lines: Array<Record<string, unknown>> = [];
  before(async () => {
    const port = await freePort();
    metricsUrl = `http://127.0.0.1:${port}/metrics`;
    const destination = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split('\n').filter(Boolean))
          lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    const logger = createLogger({ service: 'worker', level: 'info', destination });
    stack = await startStack({ runtime: workerRuntimeOptions({ logger, metricsBindAddress: `127.0.0.1:${port}` }) });
  });
  after(async () => stack?.stop());

  it('exports the SDK metrics and the product metrics with bounded labels, and logs with workflow ids', async () => {
    const provisioning = new ProvisioningClient(stack.client, { taskQueue: stack.taskQueue, claims: stack.claims });
    const clientRef = `metrics-${randomUUID()}`;
    await provisioning.start({ clientRef, country: 'DE', secret: generateClientSecret() });
    assert.equal(
      (await resultWithin(provisioning.result(clientRef), provisioningWorkflowId(clientRef))).outcome,
      'CREATED',
    );

    const text = await eventually(async () => {
      const res = await request(metricsUrl);
      const body = await res.body.text();
      assert.equal(res.statusCode, 200);
      expectSeries(
        body,
        /payflows_processes_finished_total\{[^}]*outcome="CREATED"[^}]*workflowType="provisioningWorkflow"/,
      );
      return body;
    });
    // The SDK's own: task latencies, schedule-to-start, sticky cache, pollers.
    for (const name of [
      'temporal_workflow_task_execution_latency',
      'temporal_activity_schedule_to_start_latency',
      'temporal_sticky_cache_size',
      'temporal_num_pollers',
    ]) {
      assert.ok(text.includes(name), `${name} missing`);
    }
    expectSeries(text, /payflows_processes_started_total\{[^}]*workflowType="provisioningWorkflow"/);
    expectSeries(text, /payflows_provider_calls_total\{[^}]*endpoint="register client token"[^}]*status_class="2xx"/);
    expectSeries(text, /payflows_provider_call_seconds_bucket\{[^}]*endpoint="register client token"/);
    // Labels never carry ids.
    assert.ok(!text.includes(clientRef), 'a process key leaked into a label');
    assert.ok(!/AC_[A-Za-z0-9]{6,}/.test(text), 'an account id leaked into a label');

    // Whatever the SDK logged came out as JSON with the run's ids, never the secret.
    for (const line of lines.filter((l) => l.workflowId)) assert.ok(line.runId, 'a workflow log line without runId');
  });

  it('counts a reconciliation that finds the ledger and the provider apart: payflows_balance_drift_found_total', async () => {
    const drift = /^payflows_balance_drift_found_total\{([^}]*)\} (\d+)$/m;
    const scrape = async () => {
      const res = await request(metricsUrl);
      assert.equal(res.statusCode, 200);
      return res.body.text();
    };
    const { walletId, walletWorkflowId: workflowId } = await stack.wallets.open({
      name: `metrics-drift-${randomUUID()}`,
    });
    const handle = stack.client.workflow.getHandle(workflowId);
    try {
      assert.deepEqual((await stack.wallets.reconcile(walletId)).drift, [], 'no drift while they agree');
      assert.doesNotMatch(await scrape(), drift, 'nothing counted for a reconciliation that found no drift');

      // A correction at the provider that sends no callback: the balances part.
      assert.equal(
        (
          await stack.operator('POST', `/sandbox/wallets/${walletId}/balance-adjustments`, {
            currency: 'USD',
            amount: 7,
          })
        ).status,
        200,
      );
      assert.deepEqual((await stack.wallets.reconcile(walletId)).drift, [
        { currency: 'USD', ledger: '0', provider: '7' },
      ]);
      const [, labels, value] = await eventually(async () => {
        const text = await scrape();
        expectSeries(text, drift);
        return drift.exec(text)!;
      });
      assert.equal(value, '1', 'one reconciliation found a drift');
      // A wallet is followed in the workflow that opened it (until it continues as new as walletWorkflow).
      assert.match(labels!, /workflowType="openWalletWorkflow"/);
      assert.ok(!labels!.includes(walletId), 'the wallet id leaked into a label');
    } finally {
      await handle.terminate('test done').catch(() => {});
    }
  });
});
