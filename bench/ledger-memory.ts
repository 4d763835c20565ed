import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { SANDBOX_CREDENTIALS } from '../src/config.js';
import { newId } from '../src/sandbox/ids.js';
import { bundleWorkflows } from '../scripts/lib/workflow-bundle.js';
import { startStack, stopStack } from '../scripts/lib/stack.js';
import { emptyLedger, type LedgerState, record } from '../workflows/wallet/ledger.js';
import { walletQuery, walletWorkflowId } from '../workflows/wallet/messages.js';
import { type CostLine, type LedgerSize, WALLET_COST_CURVE, walletCost } from '../worker/cache-size.js';
import { workflowInterceptorModules } from '../worker/create-worker.js';
import type { Figure } from './measure.js';
import { linearFit } from './scale/arith.js';
import { BENCH_STACK, memoryPerCached } from './stack.js';
import { benchVersioningEnv } from './versioning.js';

// What one cached wallet costs a worker by the size of its ledger: RSS and heap per cached wallet
// (the slope method of bench/stack.ts's memoryPerCached), with a ledger of 0, 200 recent entries,
// and 200 entries with 1,000 and with 10,000 settled records. Each wallet starts as a
// continue-as-new starts it: its input carries a ledger built by the ledger's own `record`, which
// Temporal hands to the workflow through the data converter, as production's next run gets it.
// Each figure is printed beside what the worker's cache sizing assumes for that ledger
// (worker/cache-size.ts, walletCost), and the goal's beside 0.5 MB.

/** The goal: a cached wallet with 200 recent entries and 1,000 settled records. */
export const GOAL = { ledger: { entries: 200, records: 1_000 }, rssMB: 0.5 } as const;

/** The ledgers measured, each with the wallets added between two readings (about 50 MB a step). */
export const LEDGER_SIZES: ReadonlyArray<{ name: string; ledger: LedgerSize; step: number }> = [
  { name: 'empty', ledger: { entries: 0, records: 0 }, step: 300 },
  { name: '200 recent entries', ledger: { entries: 200, records: 0 }, step: 200 },
  { name: '200 recent entries and 1,000 settled records', ledger: GOAL.ledger, step: 120 },
  { name: '200 recent entries and 10,000 settled records', ledger: { entries: 200, records: 10_000 }, step: 30 },
];

/**
 * A ledger of `entries` recent and `records` settled transactions, as a wallet's run reaches it:
 * confirmed deposits recorded one by one, a minute apart, the oldest leaving the recent entries for
 * a record once 200 are held.
 */
export function builtLedger(walletId: string, size: LedgerSize, now = Date.now()): LedgerState {
  const ledger = emptyLedger(walletId);
  const count = size.entries + size.records;
  for (let i = 0; i < count; i++) {
    const createdAt = now - (count - i) * 60_000;
    record(
      ledger,
      {
        id: newId('TR'),
        createdAt,
        source: `bitcoin:${randomBytes(20).toString('hex')}`,
        dest: `wallet:${walletId}`,
        currency: i % 3 === 0 ? 'ETH' : 'BTC',
        amount: `0.${String(1 + i).padStart(8, '0')}`,
        status: 'CONFIRMED',
        confirmedAt: createdAt + 600_000,
      },
      'callback',
      { now, keepHeldAside: true },
    );
  }
  return ledger;
}

export interface LedgerMemory {
  name: string;
  ledger: LedgerSize;
  rssMB: number;
  heapMB: number;
  collectedRssMB: number;
}

/**
 * Starts its own stack (the embedded dev server, the sandbox, no worker: each size gets a worker
 * process of its own) and measures each ledger size in turn.
 */
export async function ledgerMemory(
  say: (line: string) => void,
  opts: { quick: boolean },
): Promise<{ sizes: LedgerMemory[]; figures: Figure[] }> {
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
    for (const { name, ledger, step } of LEDGER_SIZES) {
      // Built once: each wallet carries it under its own id (the entries' ids repeat across wallets).
      const template = builtLedger('WA_TEMPLATE', ledger);
      const measured = await memoryPerCached({
        address,
        settings,
        say,
        bundlePath,
        what: `a wallet, ledger: ${name}`,
        // --quick: 10 wallets a step (bench/measure.ts's span quarters it), to see it run.
        step: opts.quick ? 40 : step,
        load: (taskQueue) => ({
          // The worker's first workflow creates its shared context: a wallet with this ledger, let go.
          warm: async () => {
            const handle = await start(taskQueue);
            await handle.query(walletQuery);
            await handle.terminate('warmed');
          },
          one: async () => (await start(taskQueue)).query(walletQuery),
        }),
      });
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
      sizes.push({ name, ledger, ...measured });
    }
    return { sizes, figures: ledgerFigures(sizes) };
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
 * writes it: the empty ledger's cost, what each of the 200 recent entries adds, and the slope over
 * the settled records of the ledgers that hold 200 entries.
 */
export function fittedCostLine(sizes: readonly LedgerMemory[], figure: 'rssMB' | 'heapMB'): CostLine {
  const bytes = (m: LedgerMemory) => m[figure] * 1e6;
  const empty = sizes.find((m) => m.ledger.entries === 0 && m.ledger.records === 0);
  const full = sizes.filter((m) => m.ledger.entries > 0);
  const withEntriesOnly = full.find((m) => m.ledger.records === 0);
  if (!empty || !withEntriesOnly || full.length < 2)
    throw new Error('fittedCostLine: needs an empty ledger, one of entries only, and one with records too');
  const perRecord = linearFit(full.map((m) => [m.ledger.records, bytes(m)] as const)).b;
  const base = bytes(empty);
  return { base, perEntry: (bytes(withEntriesOnly) - base) / withEntriesOnly.ledger.entries, perRecord };
}

/** What bench/results/ledger-memory.md says under its table: the line fitted, the run's conditions. */
export function ledgerNotes(sizes: readonly LedgerMemory[]): string[] {
  const line = (c: CostLine) =>
    `${Math.round(c.base).toLocaleString('en')} B + ${Math.round(c.perEntry)} B per entry + ${Math.round(c.perRecord)} B per record`;
  return [
    '## The line through them',
    '',
    `- RSS as deployed: ${line(fittedCostLine(sizes, 'rssMB'))} (worker/cache-size.ts assumes ${line(WALLET_COST_CURVE.rss)})`,
    `- V8 heap after GC: ${line(fittedCostLine(sizes, 'heapMB'))} (worker/cache-size.ts assumes ${line(WALLET_COST_CURVE.heap)})`,
    '',
    '## Each size',
    '',
    ...sizes.map(
      (m) =>
        `- ${m.name}: RSS as deployed ${m.rssMB.toFixed(3)} MB, RSS after a GC ${m.collectedRssMB.toFixed(3)} MB, heap ${m.heapMB.toFixed(3)} MB per cached wallet`,
    ),
    '',
    `Each wallet's ledger was carried into its run as a continue-as-new carries it. The machine was shared with other work (load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(', ')} at the end); memory slopes do not move with CPU load as rates do.`,
  ];
}
