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
import type { OpenWalletResult } from '../../workflows/wallet/messages.js';
import { freePort } from '../../src/temporal/ports.js';
import { eventually, startStack, type Stack } from '../helpers/stack.js';
import { connectThreadMemory, inspectorUrl, type ThreadMemory } from '../helpers/thread-memory.js';
import { kill, spawnWorker, type WorkerProcess } from '../helpers/worker-process.js';
import { HEAP_SHARE, PER_WORKFLOW_COST, walletCost, WORKER_RESERVE } from '../../worker/cache-size.js';
import { describeReadings, type FillingReading, perCachedWallet } from '../helpers/filling-slope.js';

// A worker given little memory sizes its cache from it (worker/cache-size.ts), and when more wallets
// pass through it than the cache holds it evicts and carries on instead of dying: every wallet
// still counts its deposit, and what the full cache added to its RSS fits the share of the memory
// the sizing gave the cache. Its Prometheus endpoint counts the forced evictions under the name the
// shipped alert PayflowsWorkflowCacheEvicting reads, and that rule fires on the stream it produced.
// While its cache fills, what one more cached wallet costs it (the slope over the wallets cached,
// the bench's method) agrees within 20 % with what the sizing's line, from the bench
// (bench/ledger-memory.ts), gives for the ledger its wallets hold then: an empty one.

const MiB = 1024 * 1024;
/** The cache the memory below makes: enough wallets for a slope, few enough to overflow quickly. */
const CACHE = 80;
/** The memory that sizes the cache at CACHE, from the sizing's own figures. */
const MEMORY = String(Math.ceil(WORKER_RESERVE.rssBytes + (CACHE + 0.5) * PER_WORKFLOW_COST.rssBytes));
/** A heap to match, a little larger so that the memory bounds the cache (heap_size_limit adds 48 MiB of young generation). */
const OLD_SPACE_MB = Math.ceil(
  (WORKER_RESERVE.heapBytes + ((CACHE + 5) * PER_WORKFLOW_COST.heapBytes) / HEAP_SHARE) / MiB - 48,
);
/** How far the test's figure per cached wallet may be from the sizing's line. */
const AGREEMENT = 0.2;
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
  let threads: ThreadMemory | undefined;
  let dir: string;
  before(async () => {
    ensurePrometheus((line) => console.log(`[eviction] ${line}`));
    stack = await startStack();
    dir = mkdtempSync(join(tmpdir(), 'payflows-eviction-'));
  });
  after(async () => {
    threads?.close();
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
      // The inspector, on loopback at a port of its own: the test collects the workflow thread's garbage through it.
      NODE_OPTIONS:
        `${process.env.NODE_OPTIONS ?? ''} --max-old-space-size=${OLD_SPACE_MB} --inspect=127.0.0.1:0`.trim(),
    });
    const idleRss = memory(worker.pid!, 'VmRSS');
    threads = await connectThreadMemory(inspectorUrl(worker.output()));
    const said = /"maxCachedWorkflows":(\d+),"boundedBy":"(\w+)"/.exec(worker.output());
    assert.ok(said, `the worker did not say its cache size at start:\n${worker.output().slice(0, 2_000)}`);
    const cache = Number(said[1]);
    assert.equal(said[2], 'memory', 'the cache is the one computed from the memory');
    assert.equal(cache, CACHE, `the sizing gave a cache of ${cache} for ${MEMORY} bytes`);

    // Half again as many wallets as the cache holds, opened a few at a time: the later ones push
    // the earlier out, and each deposit then wakes an evicted wallet, which evicts another.
    const wallets = new WalletsClient(stack.client, { taskQueue, pollIntervalMs: 3_600_000 });
    const count = Math.ceil(cache * 1.5) + 4;
    const opened: OpenWalletResult[] = [];
    const inFlight = 16;
    const started = Date.now();
    // The worker's memory by the wallets it holds, read after each batch while they all fit in its
    // cache, once each new wallet has answered a query (its workflow has run) and every
    // thread's garbage is collected: the heap summed over the threads, and the process's RSS.
    // A reading every 8 wallets: enough slopes that the worker's release of its start-up heap,
    // whenever it comes, spoils too few of them to move their median (test/helpers/filling-slope.ts).
    const filling: FillingReading[] = [];
    const readEvery = 8;
    for (let i = 0; i < count;) {
      const batch = Array.from(
        { length: Math.min(i < cache ? readEvery : inFlight, count - i) },
        (_, j) => `eviction-${i + j}-${randomUUID()}`,
      );
      i += batch.length;
      const added = await Promise.all(batch.map((name) => wallets.open({ name })));
      opened.push(...added);
      if (opened.length > cache) continue;
      await Promise.all(added.map((w) => eventually(() => wallets.state(w.walletId), 60_000)));
      const heap = await threads.collectedHeapBytes();
      filling.push({ count: opened.length, heap, rss: memory(worker.pid!, 'VmRSS') });
    }
    const ids = opened.map((w) => w.walletId);
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
    for (let i = 0; i < ids.length; i += inFlight)
      await Promise.all(
        ids
          .slice(i, i + inFlight)
          .map((walletId) =>
            eventually(
              async () =>
                assert.deepEqual(
                  (await wallets.state(walletId)).balances.BTC,
                  { confirmed: '0', pending: '0.25' },
                  `wallet ${walletId} does not count its deposit`,
                ),
              60_000,
            ),
          ),
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

    // One more cached wallet, as the bench measures it (the slope of the memory over the count),
    // against the sizing's line for the ledger these wallets held while the cache filled (empty: no
    // deposit yet). The heap is the figure held to it: after a GC of every thread it grows by the
    // same amount for each 16 wallets, where the RSS of 80 wallets moves by as much as they add, as
    // the allocator reuses freed pages; the RSS is said beside the line's.
    const perWallet = (figure: 'heap' | 'rss') => perCachedWallet(filling, figure);
    const heap = perWallet('heap');
    const line = walletCost({ entries: 0, records: 0 });
    const mb = (bytes: number) => `${(bytes / 1e6).toFixed(3)} MB`;
    t.diagnostic(
      `per cached wallet while filling: heap ${mb(heap)} (the sizing's line: ${mb(line.heapBytes)}), RSS ${mb(perWallet('rss'))} (the line: ${mb(line.rssBytes)}), the median of ${filling.length - 1} slopes; growth over the cache ${mb(grown / cache)}, within the ${mb(PER_WORKFLOW_COST.rssBytes)} the sizing gave each`,
    );
    assert.ok(
      Math.abs(heap / line.heapBytes - 1) <= AGREEMENT,
      `a cached wallet holds ${mb(heap)} of heap in this worker, the sizing's line (worker/cache-size.ts WALLET_COST_CURVE) ${mb(line.heapBytes)}: more than ${AGREEMENT * 100} % apart; run npm run bench -- --ledger and take its line. The readings (wallets: MB) were ${describeReadings(filling)}`,
    );

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
    for (let i = 0; i < opened.length; i += inFlight)
      await Promise.all(
        opened.slice(i, i + inFlight).map(({ walletWorkflowId }) =>
          stack.client.workflow
            .getHandle(walletWorkflowId)
            .terminate('test done')
            .catch(() => {}),
        ),
      );
  });
});
