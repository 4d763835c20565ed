import { randomBytes, randomUUID } from 'node:crypto';
import type { WorkflowHandle } from '@temporalio/client';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { SANDBOX_CREDENTIALS } from '../src/config.js';
import { newId } from '../src/sandbox/ids.js';
import { bundleWorkflows } from '../scripts/lib/workflow-bundle.js';
import { startStack, stopStack } from '../scripts/lib/stack.js';
import { emptyLedger, type LedgerState, LIMITS, record } from '../workflows/wallet/ledger.js';
import { walletQuery, walletWorkflowId } from '../workflows/wallet/messages.js';
import { type CostLine, LEDGER_BOUND, type LedgerSize, WALLET_COST_CURVE, walletCost } from '../worker/cache-size.js';
import { workflowInterceptorModules } from '../worker/create-worker.js';
import type { Figure } from './measure.js';
import { BENCH_STACK, memoryPerCached } from './stack.js';
import { benchVersioningEnv } from './versioning.js';

// What one cached wallet costs a worker by the size of its ledger: RSS and heap per cached wallet
// (the slope method of bench/stack.ts's memoryPerCached), with a ledger of 0, 200 recent entries,
// 200 entries with 1,000 and with 10,000 settled records, and the bound the ledger enforces
// (worker/cache-size.ts, LEDGER_BOUND). Each wallet starts as a continue-as-new starts it: its
// input carries a ledger built by the ledger's own `record`, which Temporal hands to the workflow
// through the data converter, as production's next run gets it. Each figure is printed beside what
// the worker's cache sizing assumes for that ledger (walletCost), and the goal's beside 0.5 MB.

/** The goal: a cached wallet with 200 recent entries and 1,000 settled records. */
export const GOAL = { ledger: { entries: 200, records: 1_000 }, rssMB: 0.5 } as const;

/**
 * The ledgers measured, each with the wallets added between two readings (about 50 MB a step; a
 * slope needs only its three readings well apart, so the largest ledgers take fewer wallets).
 */
export const LEDGER_SIZES: ReadonlyArray<{ name: string; ledger: LedgerSize; step: number }> = [
  { name: 'empty', ledger: { entries: 0, records: 0 }, step: 300 },
  { name: '200 recent entries', ledger: { entries: 200, records: 0 }, step: 200 },
  { name: '200 recent entries and 1,000 settled records', ledger: GOAL.ledger, step: 120 },
  { name: '200 recent entries and 10,000 settled records', ledger: { entries: 200, records: 10_000 }, step: 20 },
  {
    name: `the bound: ${LEDGER_BOUND.entries.toLocaleString('en')} pending entries and ${LEDGER_BOUND.records.toLocaleString('en')} settled records`,
    ledger: LEDGER_BOUND,
    step: 16,
  },
];

/**
 * A ledger of `entries` whole and `records` settled transactions, as a wallet's run reaches it:
 * deposits recorded one by one, a minute apart, the oldest confirmed leaving the entries for a
 * record once LIMITS.recentEntries are held. Past that many entries the newest are pending (only
 * pending entries stay whole beyond it), pushing the confirmed ones left out into records.
 */
export function builtLedger(walletId: string, size: LedgerSize, now = Date.now()): LedgerState {
  const ledger = emptyLedger(walletId);
  const pending = size.entries > LIMITS.recentEntries ? size.entries : 0;
  const count = size.records + (pending > 0 ? LIMITS.recentEntries + pending : size.entries);
  for (let i = 0; i < count; i++) {
    const createdAt = now - (count - i) * 60_000;
    const confirmed = i < count - pending;
    record(
      ledger,
      {
        id: newId('TR'),
        createdAt,
        source: `bitcoin:${randomBytes(20).toString('hex')}`,
        dest: `wallet:${walletId}`,
        currency: i % 3 === 0 ? 'ETH' : 'BTC',
        amount: `0.${String(1 + i).padStart(8, '0')}`,
        ...(confirmed ? { status: 'CONFIRMED', confirmedAt: createdAt + 600_000 } : { status: 'PENDING' }),
      },
      'callback',
      { now, keepHeldAside: true },
    );
  }
  return ledger;
}

/**
 * Returns once the wallet is in the worker's cache: its query answered. On a loaded machine a
 * query can fail for time while its first task runs: asked again, up to 5 times a second apart.
 */
async function cached(handle: WorkflowHandle): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await handle.query(walletQuery);
      return;
    } catch (e) {
      if (attempt === 5) {
        const cause = e instanceof Error && e.cause instanceof Error ? `: ${e.cause.message}` : '';
        throw new Error(`walletQuery on ${handle.workflowId}, ${attempt} attempts: ${String(e)}${cause}`);
      }
      await new Promise((r) => setTimeout(r, 1_000));
    }
  }
}

export interface LedgerMemory {
  name: string;
  ledger: LedgerSize;
  rssMB: number;
  heapMB: number;
  collectedRssMB: number;
}

/** How a size's passes went: their time, the machine's load meanwhile, and why they stopped if they did. */
export interface LedgerPass {
  name: string;
  seconds: number;
  /** The 1-minute load average, least and most, sampled every 10 s. */
  load: { min: number; max: number };
  error?: string;
}

/**
 * Starts its own stack (the embedded dev server, the sandbox, no worker: each size gets a worker
 * process of its own) and measures each ledger size in turn.
 */
export async function ledgerMemory(
  say: (line: string) => void,
  opts: { quick: boolean },
): Promise<{ sizes: LedgerMemory[]; passes: LedgerPass[]; figures: Figure[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'payflows-ledger-memory-'));
  const stops: Parameters<typeof stopStack>[0] = [];
  try {
    const bundlePath = join(dir, 'workflows.js');
    writeFileSync(bundlePath, await bundleWorkflows(workflowInterceptorModules));
    const stack = await startStack({
      settings: {
        TEMPORAL_DB_FILE: join(dir, 'temporal.sqlite'),
        PROVIDER_API_KEY: 'AK-BENCH-LEDGER',
        PROVIDER_SECRET_KEY: `SK-BENCH-${randomUUID()}`,
        PROVIDER_ACCOUNT_ID: SANDBOX_CREDENTIALS.accountId,
        PAYLOAD_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        CLAIM_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        ...benchVersioningEnv,
      },
      ...BENCH_STACK,
      temporalLogFile: join(dir, 'temporal.log'),
      worker: 'none',
      log: say,
      stops,
    });
    const { address, settings, client } = stack;
    const sizes: LedgerMemory[] = [];
    const passes: LedgerPass[] = [];
    for (const { name, ledger, step } of LEDGER_SIZES) {
      // Built once: each wallet carries it under its own id (the entries' ids repeat across wallets).
      const template = builtLedger('WA_TEMPLATE', ledger);
      function start(taskQueue: string) {
        const walletId = newId('WA');
        return client.workflow.start('walletWorkflow', {
          workflowId: walletWorkflowId(walletId),
          taskQueue,
          args: [{ walletId, pollIntervalMs: 3_600_000, carried: { ...template, walletId } }],
          // A first task with the largest ledger, 16 at once on a shared machine, can outlast the 10 s default.
          workflowTaskTimeout: '1 minute',
        });
      }
      const began = performance.now();
      const loads = [loadavg()[0]!];
      const sampling = setInterval(() => loads.push(loadavg()[0]!), 10_000);
      const pass = (error?: string): LedgerPass => ({
        name,
        seconds: Math.round((performance.now() - began) / 1000),
        load: { min: Math.min(...loads), max: Math.max(...loads) },
        ...(error === undefined ? {} : { error }),
      });
      // A size whose passes fail is said in the results with its reason; the others are still measured.
      const measured = await memoryPerCached({
        address,
        // As deployed, the workflows in the SDK's thread, which the worker collects before each reading.
        settings: { ...settings, BENCH_COLLECT_THREADS: '1' },
        say,
        bundlePath,
        what: `a wallet, ledger: ${name}`,
        // --quick: 10 wallets a step (bench/measure.ts's span quarters it), to see it run.
        step: opts.quick ? 40 : step,
        load: (taskQueue) => ({
          // The worker's first workflow creates its shared context: a wallet with this ledger, let go.
          warm: async () => {
            const handle = await start(taskQueue);
            await cached(handle);
            await handle.terminate('warmed');
          },
          one: async () => cached(await start(taskQueue)),
        }),
      })
        .catch((e: unknown) => {
          passes.push(pass(e instanceof Error ? e.message : String(e)));
          say(`memory: a wallet, ledger: ${name}: not measured: ${passes.at(-1)!.error}`);
          return undefined;
        })
        .finally(() => clearInterval(sampling));
      if (!measured) continue;
      passes.push(pass());
      sizes.push({
        name,
        ledger,
        rssMB: measured.rssMB,
        heapMB: measured.heapMB,
        collectedRssMB: measured.collectedRssMB,
      });
    }
    return { sizes, passes, figures: ledgerFigures(sizes) };
  } finally {
    await stopStack(stops);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Each size's figures beside what the cache sizing assumes for it, and the goal's beside 0.5 MB. */
export function ledgerFigures(sizes: readonly LedgerMemory[]): Figure[] {
  const figures: Figure[] = [];
  for (const m of sizes) {
    const assumed = walletCost(m.ledger);
    figures.push(
      {
        name: `RSS per cached wallet as deployed, ledger: ${m.name}, vs what the worker's cache sizing assumes for it`,
        unit: 'MB',
        product: m.rssMB,
        yardstick: assumed.rssBytes / 1e6,
        goal: 1,
        lowerIsBetter: true,
        absolute: true,
      },
      {
        name: `V8 heap (after GC) per cached wallet, ledger: ${m.name}, vs what the worker's cache sizing assumes for it`,
        unit: 'MB',
        product: m.heapMB,
        yardstick: assumed.heapBytes / 1e6,
        goal: 1,
        lowerIsBetter: true,
        absolute: true,
      },
    );
    if (m.ledger.entries === GOAL.ledger.entries && m.ledger.records === GOAL.ledger.records)
      figures.push({
        name: `RSS per cached wallet as deployed, ledger: ${m.name}, vs the goal of ${GOAL.rssMB} MB`,
        unit: 'MB',
        product: m.rssMB,
        yardstick: GOAL.rssMB,
        goal: 1,
        lowerIsBetter: true,
        absolute: true,
      });
  }
  return figures;
}

/**
 * The line through the measured sizes, in bytes, as worker/cache-size.ts's WALLET_COST_CURVE
 * writes it: the empty ledger's cost, what each entry adds (from the ledger of entries only), and
 * per record the least that keeps every size with records at or under the line, so that the
 * sizing falls short at no size measured (what a record adds is not quite constant over the sizes).
 */
export function fittedCostLine(sizes: readonly LedgerMemory[], figure: 'rssMB' | 'heapMB'): CostLine {
  const bytes = (m: LedgerMemory) => m[figure] * 1e6;
  const empty = sizes.find((m) => m.ledger.entries === 0 && m.ledger.records === 0);
  const entriesOnly = sizes.find((m) => m.ledger.entries > 0 && m.ledger.records === 0);
  const withRecords = sizes.filter((m) => m.ledger.records > 0);
  if (!empty || !entriesOnly || withRecords.length === 0)
    throw new Error('fittedCostLine: needs an empty ledger, one of entries only, and one with records');
  const base = bytes(empty);
  const perEntry = (bytes(entriesOnly) - base) / entriesOnly.ledger.entries;
  const perRecord = Math.max(
    ...withRecords.map((m) => (bytes(m) - base - perEntry * m.ledger.entries) / m.ledger.records),
  );
  return { base, perEntry, perRecord };
}

/** What bench/results/ledger-memory.md says under its table: the line fitted, each size, how the run went. */
export function ledgerNotes(sizes: readonly LedgerMemory[], passes: readonly LedgerPass[]): string[] {
  const line = (c: CostLine) =>
    `${Math.round(c.base).toLocaleString('en')} B + ${Math.round(c.perEntry)} B per entry + ${Math.round(c.perRecord)} B per record`;
  const fitted = (figure: 'rssMB' | 'heapMB') => {
    try {
      return line(fittedCostLine(sizes, figure));
    } catch {
      return 'not fitted (a size is missing)';
    }
  };
  return [
    '## The line through them',
    '',
    `- RSS as deployed: ${fitted('rssMB')} (worker/cache-size.ts assumes ${line(WALLET_COST_CURVE.rss)})`,
    `- V8 heap after GC: ${fitted('heapMB')} (worker/cache-size.ts assumes ${line(WALLET_COST_CURVE.heap)})`,
    '',
    '## Each size',
    '',
    ...LEDGER_SIZES.map(({ name }) => {
      const m = sizes.find((s) => s.name === name);
      return m
        ? `- ${name}: RSS as deployed ${m.rssMB.toFixed(3)} MB, RSS after a GC ${m.collectedRssMB.toFixed(3)} MB, heap ${m.heapMB.toFixed(3)} MB per cached wallet`
        : `- ${name}: not measured`;
    }),
    '',
    '## How this run went',
    '',
    "Each wallet's ledger was carried into its run as a continue-as-new carries it. Each size is two passes of a worker of its own: RSS as deployed (the workflows in the SDK's thread, every thread collected through the process's inspector before a reading), then heap with the workflows in the main thread (and the RSS after a GC there). The machine's 1-minute load average was sampled every 10 s while they ran:",
    '',
    ...passes.map(
      (p) =>
        `- ${p.name}: ${p.seconds} s, load average ${p.load.min.toFixed(1)} to ${p.load.max.toFixed(1)}${p.error ? `; not finished: ${p.error}` : ''}`,
    ),
    '',
    'Memory slopes do not move with CPU load as rates do; a size that did not finish is said above with its reason.',
  ];
}
