import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { request } from 'undici';
import { parse } from 'yaml';
import { WalletsClient } from '../../workflows/wallet/client.js';
import { freePort } from '../../src/temporal/ports.js';
import { ensurePrometheus, PROMTOOL } from '../../scripts/lib/prometheus.js';
import { type Stack, eventually, startStack } from '../helpers/stack.js';
import { kill, spawnWorker, type WorkerProcess } from '../helpers/worker-process.js';

// A bad deploy shows as workflow tasks that fail and retry for ever, silently: a worker whose
// wallet code diverges from what a running wallet recorded (test/fixtures/breaking-wallet) takes
// over its task queue; its workflow tasks fail, its Prometheus endpoint counts them, and the
// shipped alerts fire on that series, by the name and labels scraped: at once for failing tasks,
// and after half an hour of them for a workflow stuck on its task.

const FAILED = /^(temporal_workflow_task_execution_failed\w*)\{([^}]*)\} (\d+(?:\.\d+)?)$/gm;

type AlertRule = { alert?: string; annotations: { summary: string; description: string } };

describe('alerts for a bad deploy', () => {
  let stack: Stack;
  let dir: string;
  const workers: WorkerProcess[] = [];
  before(async () => {
    ensurePrometheus((line) => console.log(`[alerts] ${line}`));
    stack = await startStack();
    dir = mkdtempSync(join(tmpdir(), 'payflows-task-alerts-'));
  });
  after(async () => {
    for (const w of workers) await kill(w);
    await stack?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('a worker that cannot replay a running wallet fails its tasks, and both alerts fire on its metric', async (t) => {
    const taskQueue = `task-alerts-${randomUUID()}`;
    const good = await spawnWorker({ ...stack.workerEnv, TEMPORAL_TASK_QUEUE: taskQueue });
    workers.push(good);
    const wallets = new WalletsClient(stack.client, { taskQueue, pollIntervalMs: 3_600_000 });
    const { walletId, walletWorkflowId: workflowId } = await wallets.open({ name: `task-alerts-${randomUUID()}` });
    // The wallet's first workflow task must be the good worker's, recorded: a first task that
    // reached the changed code instead (the good worker killed before it ran it) replays nothing
    // and fails nothing, and the changed code would then run the wallet with its own commands.
    const wallet = stack.client.workflow.getHandle(workflowId);
    await eventually(async () => {
      const { events } = await wallet.fetchHistory();
      assert.ok(
        events?.some((e) => e.workflowTaskCompletedEventAttributes),
        'the wallet ran its first task',
      );
    }, 60_000);
    await kill(good);

    const metricsPort = await freePort();
    const bad = await spawnWorker(
      { ...stack.workerEnv, TEMPORAL_TASK_QUEUE: taskQueue, WORKER_METRICS_PORT: String(metricsPort) },
      { entry: 'test/fixtures/breaking-worker.ts' },
    );
    workers.push(bad);
    // A deposit wakes the wallet: its next workflow task goes to the changed code, which replays.
    const res = await stack.operator('POST', `/sandbox/wallets/${walletId}/deposits`, { currency: 'BTC', amount: 1 });
    assert.equal(res.status, 200);
    const [name, labels] = await eventually(async () => {
      const text = await (await request(`http://127.0.0.1:${metricsPort}/metrics`)).body.text();
      // The wallet is followed in the workflow that opened it.
      const wallet = [...text.matchAll(FAILED)].find((m) => m[2]!.includes('workflow_type="openWalletWorkflow"'));
      assert.ok(
        wallet,
        `no failed workflow task of openWalletWorkflow counted yet; the worker said:\n${bad.output().slice(-3000)}`,
      );
      assert.ok(Number(wallet[3]) >= 2, 'the server retried the failed task, and it failed again');
      return [wallet[1]!, wallet[2]!] as const;
    }, 60_000);
    t.diagnostic(`failed workflow tasks exported as ${name}{${labels}}`);
    // It is ended by a signal: a bundle it wrote for itself would stay in the temporary folder.
    assert.equal(
      existsSync(join(tmpdir(), `payflows-breaking-wallet-${bad.pid}.js`)),
      false,
      'the worker removed the bundle it wrote once it had loaded it',
    );
    // Why: the series' failure_reason label, or the worker's log (the SDK forwards its logs in batches).
    await eventually(
      () => assert.match(`${labels}\n${bad.output()}`, /nondeterminism/i, 'the worker says why its task failed'),
      30_000,
    );

    const rules = resolve('deploy/prometheus/alerts.yml');
    const all = (parse(readFileSync(rules, 'utf8')) as { groups: Array<{ rules: AlertRule[] }> }).groups.flatMap(
      (g) => g.rules,
    );
    const rule = (alert: string) => {
      const found = all.find((r) => r.alert === alert);
      assert.ok(found, `${alert} is missing from alerts.yml`);
      return found;
    };
    const workflowType = 'openWalletWorkflow';
    const filled = (template: string) =>
      template
        .replaceAll('{{ $labels.workflow_type }}', workflowType)
        .replaceAll('{{ $labels.instance }}', 'bad-worker');
    const expected = (alert: string, severity: string) => ({
      exp_labels: { severity, workflow_type: workflowType },
      exp_annotations: {
        summary: filled(rule(alert).annotations.summary),
        description: filled(rule(alert).annotations.description),
      },
    });
    // The series as scraped, its labels and all: it appears at its first failure (so increase()
    // sees the second), then the server keeps retrying; modelled slower than seen, one retry
    // every 10 minutes, the least that must still fire.
    const series = `${name}{${labels},instance="bad-worker",job="payflows-worker"}`;
    writeFileSync(
      join(dir, 'task-alerts.test.yml'),
      JSON.stringify({
        rule_files: [rules],
        evaluation_interval: '1m',
        tests: [
          {
            interval: '1m',
            input_series: [{ series, values: '_ 1 2+0x9 3+0x9 4+0x9 5+0x9 6+0x9' }],
            alert_rule_test: [
              {
                eval_time: '3m',
                alertname: 'PayflowsWorkflowTasksFailing',
                exp_alerts: [expected('PayflowsWorkflowTasksFailing', 'critical')],
              },
              { eval_time: '3m', alertname: 'PayflowsWorkflowStuck', exp_alerts: [] },
              {
                eval_time: '45m',
                alertname: 'PayflowsWorkflowStuck',
                exp_alerts: [expected('PayflowsWorkflowStuck', 'critical')],
              },
            ],
          },
        ],
      }),
    );
    const out = execFileSync(PROMTOOL, ['test', 'rules', 'task-alerts.test.yml'], { cwd: dir, encoding: 'utf8' });
    assert.match(out, /SUCCESS/, out);
  });
});
