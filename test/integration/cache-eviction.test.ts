import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { request } from 'undici';
import { parse } from 'yaml';
import { ensurePrometheus, PROMTOOL } from '../../scripts/lib/prometheus.js';
import { parseByteSize } from '../../src/byte-size.js';
import { WalletsClient } from '../../workflows/wallet/client.js';
import { freePort } from '../../src/temporal/ports.js';
import { eventually, startStack, type Stack } from '../helpers/stack.js';
import { kill, spawnWorker, type WorkerProcess } from '../helpers/worker-process.js';
import { walletWorkflowId } from '../../workflows/wallet/messages.js';
import { WORKER_RESERVE } from '../../worker/cache-size.js';

// A worker given little memory sizes its cache from it (worker/cache-size.ts), and when more wallets
// pass through it than the cache holds it evicts and carries on instead of dying: every wallet
// still counts its deposit, and what the full cache added to its RSS fits the share of the memory
// the sizing gave the cache. Its Prometheus endpoint counts the forced evictions under the name the
// shipped alert PayflowsWorkflowCacheEvicting reads, and that rule fires on the stream it produced.

const MiB = 1024 * 1024;
const MEMORY = '256Mi';
/** A heap to match the memory: heap_size_limit is this plus V8's 48 MiB of young generation. */
const OLD_SPACE_MB = 128;
const EVICTIONS = /^(temporal_sticky_cache_total_forced_eviction\w*)(?:\{[^}]*\})? (\d+(?:\.\d+)?)$/m;

type AlertRules = {
  groups: Array<{ rules: Array<{ alert?: string; annotations: { summary: string; description: string } }> }>;
};

/** A field of a process's /proc status (VmRSS, VmHWM), in bytes. */
function memory(pid: number, field: string): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]) * 1024;
}

/** Prometheus's `humanize` for the values met here: 4 significant digits, SI prefixes k and m. */
function humanize(v: number): string {
  const [scaled, prefix] = v >= 1000 ? [v / 1000, 'k'] : v < 1 ? [v * 1000, 'm'] : [v, ''];
  return `${Number(scaled.toPrecision(4))}${prefix}`;
}

describe('a worker sized by its memory', () => {
  let stack: Stack;
  let worker: WorkerProcess | undefined;
  let dir: string;
  before(async () => {
    ensurePrometheus((line) => console.log(`[eviction] ${line}`));
    stack = await startStack();
    dir = mkdtempSync(join(tmpdir(), 'payflows-eviction-'));
  });
  after(async () => {
    if (worker) await kill(worker);
    await stack?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('evicts when more wallets than its cache pass through it, keeps counting deposits, and the alert fires on its metric', async (t) => {
    const taskQueue = `eviction-${randomUUID()}`;
    const metricsPort = await freePort();
    worker = await spawnWorker({
      ...stack.workerEnv,
      TEMPORAL_TASK_QUEUE: taskQueue,
      WORKER_MEMORY: MEMORY,
      WORKER_METRICS_PORT: String(metricsPort),
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --max-old-space-size=${OLD_SPACE_MB}`.trim(),
    });
    const idleRss = memory(worker.pid!, 'VmRSS');
    const said = /"maxCachedWorkflows":(\d+),"boundedBy":"(\w+)"/.exec(worker.output());
    assert.ok(said, `the worker did not say its cache size at start:\n${worker.output().slice(0, 2_000)}`);
    const cache = Number(said[1]);
    assert.notEqual(said[2], 'WORKER_MAX_CACHED_WORKFLOWS', 'the cache is the one computed from the memory');
    assert.ok(cache <= 150, `a cache of ${cache} takes too long to overflow here: lower MEMORY or OLD_SPACE_MB`);

    // Half again as many wallets as the cache holds, opened a few at a time: the later ones push
    // the earlier out, and each deposit then wakes an evicted wallet, which evicts another.
    const wallets = new WalletsClient(stack.client, { taskQueue, pollIntervalMs: 3_600_000 });
    const count = Math.ceil(cache * 1.5) + 4;
    const ids: string[] = [];
    const inFlight = 8;
    const started = Date.now();
    for (let i = 0; i < count; i += inFlight) {
      const batch = Array.from(
        { length: Math.min(inFlight, count - i) },
        (_, j) => `eviction-${i + j}-${randomUUID()}`,
      );
      ids.push(...(await Promise.all(batch.map(async (name) => (await wallets.open({ name })).walletId))));
    }
    for (let i = 0; i < ids.length; i += inFlight)
      await Promise.all(
        ids.slice(i, i + inFlight).map(async (walletId) => {
          const res = await stack.operator('POST', `/sandbox/wallets/${walletId}/deposits`, {
            currency: 'BTC',
            amount: 0.25,
          });
          assert.equal(res.status, 200, `the sandbox refused a deposit to ${walletId}`);
        }),
      );
    for (const walletId of ids)
      await eventually(
        async () =>
          assert.deepEqual(
            (await wallets.state(walletId)).balances.BTC,
            { confirmed: '0', pending: '0.25' },
            `wallet ${walletId} does not count its deposit`,
          ),
        60_000,
      );
    const seconds = (Date.now() - started) / 1000;
    assert.equal(worker.exitCode, null, `the worker died:\n${worker.output().slice(-2_000)}`);

    const scrape = await request(`http://127.0.0.1:${metricsPort}/metrics`);
    const text = await scrape.body.text();
    const found = EVICTIONS.exec(text);
    assert.ok(found, `no forced-eviction counter on the worker's endpoint`);
    const [, name, value] = found;
    const evicted = Number(value);
    assert.ok(evicted >= count - cache, `${evicted} forced evictions for ${count} wallets in a cache of ${cache}`);

    // The rule, fed the series under the name scraped, at the pace this worker evicted (whole
    // evictions a minute), sustained: promtool's own rule test says whether and how it fires.
    t.diagnostic(
      `cache ${cache}, ${count} wallets in ${seconds} s: ${evicted} forced evictions, as ${name}; worker RSS ${Math.round(idleRss / MiB)} MiB idle, ${Math.round(memory(worker.pid!, 'VmRSS') / MiB)} MiB now, peak ${Math.round(memory(worker.pid!, 'VmHWM') / MiB)} MiB`,
    );
    // What the full cache and its churn added to the worker stays within the share the sizing gave
    // the cache. (What the worker holds before it, under tsx and bundling at start, is its own.)
    const grown = Math.max(memory(worker.pid!, 'VmRSS'), memory(worker.pid!, 'VmHWM')) - idleRss;
    const share = parseByteSize(MEMORY) - WORKER_RESERVE.rssBytes;
    assert.ok(grown <= share, `the cache grew the worker by ${grown / MiB} MiB, past the ${share / MiB} MiB given it`);

    const perMinute = Math.max(1, Math.round((evicted / seconds) * 60));
    const rate = perMinute / 60;
    assert.ok(rate > 0.1, `${evicted} evictions in ${seconds} s is below the alert's threshold of 0.1/s`);
    const rules = resolve('deploy/prometheus/alerts.yml');
    const rule = (parse(readFileSync(rules, 'utf8')) as AlertRules).groups
      .flatMap((g) => g.rules)
      .find((r) => r.alert === 'PayflowsWorkflowCacheEvicting');
    assert.ok(rule, 'PayflowsWorkflowCacheEvicting is missing from alerts.yml');
    const filled = (template: string) =>
      template
        .replaceAll('{{ $labels.instance }}', 'worker-under-test')
        .replaceAll('{{ $value | humanize }}', humanize(rate));
    writeFileSync(
      join(dir, 'eviction.test.yml'),
      JSON.stringify({
        rule_files: [rules],
        evaluation_interval: '1m',
        tests: [
          {
            interval: '1m',
            input_series: [
              { series: `${name}{instance="worker-under-test", job="payflows-worker"}`, values: `0+${perMinute}x30` },
            ],
            alert_rule_test: [
              {
                eval_time: '25m',
                alertname: 'PayflowsWorkflowCacheEvicting',
                exp_alerts: [
                  {
                    exp_labels: { severity: 'warning', instance: 'worker-under-test' },
                    exp_annotations: {
                      summary: filled(rule.annotations.summary),
                      description: filled(rule.annotations.description),
                    },
                  },
                ],
              },
            ],
          },
        ],
      }),
    );
    const out = execFileSync(PROMTOOL, ['test', 'rules', 'eviction.test.yml'], { cwd: dir, encoding: 'utf8' });
    assert.match(out, /SUCCESS/, out);
    assert.equal(worker.exitCode, null, 'the worker is still running');
    for (const walletId of ids)
      await stack.client.workflow
        .getHandle(walletWorkflowId(walletId))
        .terminate('test done')
        .catch(() => {});
  });
});
