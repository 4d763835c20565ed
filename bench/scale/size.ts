import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import proto from '@temporalio/proto';
import { WalletsClient } from '../../workflows/wallet/client.js';
import { WALLET_TIMING_DEFAULTS } from '../../workflows/wallet/contract.js';
import { walletCallbackUrl, walletQuery } from '../../workflows/wallet/messages.js';
import { depositCallback, postCallback } from '../protocol.js';
import { eachConcurrently } from '../measure.js';
import { pacedAt, percentile, perWalletDay, reconcilesEachPeriod, turnsInWindow } from './arith.js';
import type { ScaleStack } from './stack.js';
import { sendSteadily } from './steady-send.js';
import { growth, type TableSize, totalBytes } from './tables.js';
import type { Topology } from './topology.js';

// One size of the scale run: N wallets opened through the product's client, left idle at a
// shortened pace, measured, then callbacks to a few of them while the rest stay idle.

/** The defaults the shortened pace is scaled back to (the wallet's contract). */
export const REAL = WALLET_TIMING_DEFAULTS;

export interface SizeResult {
  wallets: number;
  /** The Temporal server's topology (optional: scale.json's rows without one were on the single process). */
  topology?: Topology;
  at: string;
  /** Where it was measured (thisMachine). */
  machine: string;
  open: { seconds: number; perSecond: number; inFlight: number; failures: number };
  idle: {
    /** The shortened WALLET_POLL_INTERVAL = WALLET_POLL_MAX, and WALLET_RECONCILE_INTERVAL, of this run. */
    simPollMs: number;
    simReconcileMs: number;
    windowMs: number;
    /** Turns to call that fell in the window (bench/scale/arith.ts turnsInWindow): N for a whole period. */
    turns?: number;
    /** Requests the sandbox answered in the window, by route. */
    byRoute: Record<string, number>;
    polls: number;
    reconciles: number;
    other: number;
    /** At the shortened pace, as measured. */
    callsPerSecondMeasured: number;
    /** Scaled back to the defaults. */
    callsPerWalletDay: number;
    pollsPerWalletDay: number;
    reconcilesPerWalletDay: number;
    callsPerSecondAtDefaults: number;
  };
  database: { mainBefore: number; mainAfter: number; visibilityBefore: number; visibilityAfter: number };
  bytesPerWallet: number;
  visibilityBytesPerWallet: number;
  /**
   * The same once both databases were rewritten without dead row versions (VACUUM FULL, before the
   * opening and once the callbacks were measured): what the wallets' rows hold. Optional: rows before it lack it.
   */
  atRest?: { mainBytesPerWallet: number; visibilityBytesPerWallet: number };
  /** What each table of both databases grew by over the run, with its indexes (optional: rows before it lack it). */
  tables?: { main: TableSize[]; visibility: TableSize[] };
  worker: { rssIdleEmpty: number; rssWithWallets: number; peak: number; maxCachedWorkflows: number | undefined };
  /** The Temporal server's processes' VmRSS summed, as the worker's (optional: some rows in scale.json lack it). */
  temporal?: { rssIdleEmpty: number; rssWithWallets: number; processes: number };
  /** The machine's 1-minute load average over the size's run, sampled (optional: some rows in scale.json lack it). */
  load?: { mean: number; max: number };
  callbacks: {
    offeredPerSecond: number;
    sent: number;
    /** Refused by the ingress (not 200: Temporal did not take the signal); optional: some rows in scale.json lack it. */
    refused?: number;
    counted: number;
    /** Not listed by the wallet's query 10 s after the last callback, or no task found after the signal. */
    timedOut: number;
    p50: number;
    p99: number;
    max: number;
    /** Until the ingress answered 200 (Temporal accepted the signal). */
    acceptedP50: number;
    acceptedP99: number;
    /** The idle wallets' polls and reconciliations a second while the callbacks were sent (optional:
     * scale.json holds runs without it, whose report says "not recorded"). */
    backgroundPerSecond?: number;
  };
  /** A run under the defaults' steady background (`SCALE_STEADY`), kept apart in scale-steady.json. */
  steady?: {
    /** The opening's pace, N / P a second: the wallets' phases then tile the period. */
    pacedPerSecond: number;
    /** The share of wallets that reconcile every P; the rest every RECONCILE_RATIO × P. */
    reconcilingShare: number;
    /** Over the callbacks' own span (their sum is callbacks.backgroundPerSecond); optional as above. */
    backgroundPollsPerSecond?: number;
    backgroundReconcilesPerSecond?: number;
  };
}

/** The defaults reconcile once every this many polls of a quiet wallet (6 h / 90 min). */
export const RECONCILE_RATIO = REAL.reconcileIntervalMs / REAL.pollMaxMs;

const EventType = proto.temporal.api.enums.v1.EventType;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A steady run's other wallets first reconcile RECONCILE_RATIO periods after they opened: the window
 * and the callbacks past the opening must end before that, or they meet those too. Checked before
 * hours of opening.
 */
export function checkSteadyFits(o: { periodMs: number; windowMs: number; marginMs: number; callbackSeconds: number }) {
  const afterOpening = o.marginMs + o.windowMs + o.callbackSeconds * 1000 + 60_000;
  const before = (RECONCILE_RATIO - 1) * o.periodMs;
  if (afterOpening > before)
    throw new Error(
      `SCALE_STEADY: the window and the callbacks (${afterOpening / 1000} s with a minute to spare) must end before the other wallets first reconcile, ${RECONCILE_RATIO - 1} periods after the opening (${before / 1000} s): lower SCALE_IDLE_WINDOW or SCALE_CALLBACK_SECONDS, or SCALE_IDLE_RATE`,
    );
}

export async function measureSize(
  stack: ScaleStack,
  n: number,
  opts: {
    say: (l: string) => void;
    idleRate: number;
    /** The idle window; one whole period P when undefined. */
    idleWindowMs: number | undefined;
    inFlight: number;
    callbackRate: number;
    callbackSeconds: number;
    logDir: string;
    /**
     * The idle background the defaults make, steady, while the callbacks are sent: the opening paced
     * at N / P a second over one period P, so that the wallets' turns tile it (past the opening, N / P
     * polls a second); every RECONCILE_RATIO-th wallet reconciles every P and the rest every
     * RECONCILE_RATIO × P, a turn that falls past the run, so that the reconciliations too come at the
     * defaults' share of the polls.
     */
    steady: boolean;
  },
): Promise<SizeResult> {
  const { say } = opts;
  // Every wallet at the ceiling from its first wait (interval = ceiling), at a pace that keeps the
  // polls near idleRate a second whatever the size; reconciliation on the same period, so that a
  // window of one period sees each wallet poll once and reconcile once.
  const simPollMs = Math.max(100_000, Math.round((n / opts.idleRate) * 1000));
  const simReconcileMs = simPollMs;
  const walletsAt = (reconcileIntervalMs: number) =>
    new WalletsClient(stack.client, {
      taskQueue: stack.taskQueue,
      pollIntervalMs: simPollMs,
      pollMaxMs: simPollMs,
      reconcileIntervalMs,
    });
  const wallets = walletsAt(simReconcileMs);
  const seldom = opts.steady ? walletsAt(simReconcileMs * RECONCILE_RATIO) : wallets;
  // Which wallets reconcile every P: all of them, or in a steady run every RECONCILE_RATIO-th.
  const ratio = opts.steady ? RECONCILE_RATIO : 1;
  const pacedPerSecond = (n / simPollMs) * 1000;
  const windowMs = Math.min(opts.idleWindowMs ?? simPollMs, simPollMs);
  const margin = Math.max(10_000, windowMs / 20);
  if (opts.steady)
    checkSteadyFits({ periodMs: simPollMs, windowMs, marginMs: margin, callbackSeconds: opts.callbackSeconds });

  const load = sampleLoad();
  // The stack's worker is fresh: a few seconds for it to settle past its start.
  await sleep(5_000);
  const rssIdleEmpty = stack.workerMemory().rss;
  const temporalIdleEmpty = stack.temporalMemory();
  // Compacted first, so that what the wallets add is measured from rows without dead versions.
  stack.compactDatabases();
  const tablesBefore = stack.databaseTables();
  const dbBefore = { main: totalBytes(tablesBefore.main), visibility: totalBytes(tablesBefore.visibility) };
  say(
    opts.steady
      ? `${n} wallets: opening at ${pacedPerSecond.toFixed(1)}/s (poll every ${simPollMs / 1000} s, one in ${RECONCILE_RATIO} reconciling as often)`
      : `${n} wallets: opening, ${opts.inFlight} in flight (poll and reconcile every ${simPollMs / 1000} s)`,
  );

  const run = randomUUID().slice(0, 6);
  const ids: Array<{ walletId: string; name: string; workflowId: string }> = [];
  // When each was opened: its workflow's timers started then, so its turns to call fall at +P, +2P, ….
  const openedAt: number[] = [];
  const reconcilingOpenedAt: number[] = [];
  let failures = 0;
  const openStart = performance.now();
  let lastSaid = openStart;
  await eachConcurrently(
    Array.from({ length: n }, (_, i) => i),
    opts.inFlight,
    async (i) => {
      if (opts.steady) {
        const wait = openStart + pacedAt(i, n, simPollMs) - performance.now();
        if (wait > 0) await sleep(wait);
      }
      for (let attempt = 0; ; attempt++) {
        try {
          const reconciles = reconcilesEachPeriod(i, ratio);
          const name = `scale-${run}-${i}`;
          const { walletId, walletWorkflowId: workflowId } = await (reconciles ? wallets : seldom).open({ name });
          ids.push({ walletId, name, workflowId });
          const at = performance.now();
          openedAt.push(at);
          if (reconciles) reconcilingOpenedAt.push(at);
          break;
        } catch (err) {
          failures += 1;
          if (attempt >= 3) throw new Error(`opening wallet ${i} failed 4 times: ${String(err)}`);
          await sleep(1_000);
        }
      }
      if (performance.now() - lastSaid > 15_000) {
        lastSaid = performance.now();
        say(`  ${ids.length} opened, ${((ids.length / (lastSaid - openStart)) * 1000).toFixed(1)}/s`);
      }
    },
  );
  const openSeconds = (performance.now() - openStart) / 1000;
  say(`  ${n} opened in ${openSeconds.toFixed(0)} s (${(n / openSeconds).toFixed(1)}/s, ${failures} retried)`);

  // Idle: past the opening, a window counted by the sandbox: one whole period, or a part of one
  // (then the wallets' opening times say whose turns fell in it).
  // A whole period holds every wallet's turn wherever it starts. A shorter window starts past the
  // first wallet's first turn (an opening quicker than P leaves a gap before it), and by a margin: a
  // wallet calls a little after its turn (a workflow task, an activity dispatched), which the window's
  // end loses and its start must win back from the wallets before it (at the very first turn there
  // are none, and the count falls short).
  const firstTurn = openedAt.reduce((a, b) => Math.min(a, b), Infinity) + simPollMs;
  await sleep(windowMs < simPollMs ? Math.max(5_000, firstTurn + margin - performance.now()) : 5_000);
  say(`  idle: counting the provider's requests for ${windowMs / 1000} s`);
  const before = new Map(stack.requests);
  const windowStart = performance.now();
  await sleep(windowMs);
  const windowEnd = performance.now();
  const measuredMs = windowEnd - windowStart;
  const turns = turnsInWindow(openedAt, simPollMs, windowStart, windowEnd);
  const reconcileTurns = turnsInWindow(reconcilingOpenedAt, simReconcileMs, windowStart, windowEnd);
  if (turns === 0) throw new Error(`idle: no wallet's turn to call fell in the ${windowMs / 1000} s window`);
  if (reconcileTurns === 0)
    throw new Error(
      `idle: no reconciling wallet's turn fell in the ${windowMs / 1000} s window (one in ${ratio} reconciles each period): lengthen SCALE_IDLE_WINDOW`,
    );
  const byRoute: Record<string, number> = {};
  for (const [route, count] of stack.requests) {
    const d = count - (before.get(route) ?? 0);
    if (d > 0) byRoute[route] = d;
  }
  const [polls, reconciles] = [byRoute[POLL_ROUTE] ?? 0, byRoute[RECONCILE_ROUTE] ?? 0];
  const other = Object.values(byRoute).reduce((a, b) => a + b, 0) - polls - reconciles;
  const rssWithWallets = stack.workerMemory().rss;
  const temporalWithWallets = stack.temporalMemory();
  const tablesAfter = stack.databaseTables();
  const dbAfter = { main: totalBytes(tablesAfter.main), visibility: totalBytes(tablesAfter.visibility) };
  // Calls counted over the turns in the window, each turn one period's: per wallet-day at the defaults.
  const perDay = (calls: number, wallets: number, simIntervalMs: number, realIntervalMs: number) =>
    perWalletDay({ calls, wallets, windowMs: simIntervalMs, simIntervalMs, realIntervalMs });
  const pollsPerWalletDay = perDay(polls, turns, simPollMs, REAL.pollMaxMs);
  const reconcilesPerWalletDay = perDay(reconciles, reconcileTurns, simReconcileMs, REAL.reconcileIntervalMs);
  // Anything else an idle wallet made the provider answer, scaled as the polls (the larger ratio).
  const otherPerWalletDay = perDay(other, turns, simPollMs, REAL.pollMaxMs);
  const callsPerWalletDay = pollsPerWalletDay + reconcilesPerWalletDay + otherPerWalletDay;
  say(
    `  idle: ${polls} polls, ${reconciles} reconciliations, ${other} other in ${(measuredMs / 1000).toFixed(0)} s, ${turns} wallets' turns: ${callsPerWalletDay.toFixed(1)} calls per wallet-day at the defaults`,
  );

  // Callbacks to distinct random wallets at a steady rate, the rest idle: until the query shows it.
  const sample = [...ids].sort(() => Math.random() - 0.5);
  const count = Math.min(ids.length, Math.round(opts.callbackRate * opts.callbackSeconds));
  say(`  callbacks: ${count} at ${opts.callbackRate}/s through the ingress`);
  const latencies: number[] = [];
  const accepted: number[] = [];
  let timedOut = 0;
  // The idle load the callbacks meet is whatever turns fall in their own span: measured, not assumed.
  const callsBefore = new Map(stack.requests);
  const cbStart = performance.now();
  const { sent, refused } = await sendSteadily(count, opts.callbackRate, async (i) => {
    const [wallet, txId] = [sample[i]!, `TR_S${run.toUpperCase()}${i.toString(36).toUpperCase()}`];
    const { sentAt, acceptedMs } = await sendCallback(stack, wallet, txId);
    accepted.push(acceptedMs);
    return { wallet, txId, sentAt };
  });
  if (refused.length > 0) say(`  callbacks: ${refused.length} refused, the first: ${refused[0]}`);
  const cbSeconds = (performance.now() - cbStart) / 1000;
  const since = (route: string) => ((stack.requests.get(route) ?? 0) - (callsBefore.get(route) ?? 0)) / cbSeconds;
  const [backgroundPolls, backgroundReconciles] = [since(POLL_ROUTE), since(RECONCILE_ROUTE)];
  const backgroundPerSecond = backgroundPolls + backgroundReconciles;
  await sleep(10_000);
  say('  callbacks: reading when each was counted (query, then history)');
  // A wallet whose query or history fails (a loaded server) counts as not counted and is named,
  // rather than losing the size's figures measured before it.
  let unread: string | undefined;
  await eachConcurrently(sent, 8, async ({ wallet, txId, sentAt }) => {
    const t = await countedAt(stack, wallet.workflowId, txId, sentAt).catch((err: unknown) => {
      unread ??= `${wallet.workflowId}: ${String(err)}`;
      return undefined;
    });
    if (t === undefined) timedOut += 1;
    else latencies.push(t);
  });
  if (unread) say(`  callbacks: a wallet's query or history failed, counted as not counted; the first: ${unread}`);
  // Last, once nothing is measured any more: VACUUM FULL locks each table while it rewrites it, which
  // would hold up the callbacks. The callbacks' signals are in it (about 1.5 KB of history each).
  say('  database: compacting (VACUUM FULL), then reading it at rest');
  stack.compactDatabases();
  const tablesAtRest = stack.databaseTables();
  const result: SizeResult = {
    wallets: n,
    topology: stack.topology,
    at: new Date().toISOString(),
    machine: thisMachine(),
    open: { seconds: openSeconds, perSecond: n / openSeconds, inFlight: opts.inFlight, failures },
    idle: {
      simPollMs,
      simReconcileMs,
      windowMs: measuredMs,
      turns,
      byRoute,
      polls,
      reconciles,
      other,
      callsPerSecondMeasured: ((polls + reconciles + other) / measuredMs) * 1000,
      callsPerWalletDay,
      pollsPerWalletDay,
      reconcilesPerWalletDay,
      callsPerSecondAtDefaults: (callsPerWalletDay * n) / 86_400,
    },
    database: {
      mainBefore: dbBefore.main,
      mainAfter: dbAfter.main,
      visibilityBefore: dbBefore.visibility,
      visibilityAfter: dbAfter.visibility,
    },
    bytesPerWallet: (dbAfter.main - dbBefore.main) / n,
    visibilityBytesPerWallet: (dbAfter.visibility - dbBefore.visibility) / n,
    atRest: {
      mainBytesPerWallet: (totalBytes(tablesAtRest.main) - dbBefore.main) / n,
      visibilityBytesPerWallet: (totalBytes(tablesAtRest.visibility) - dbBefore.visibility) / n,
    },
    tables: {
      main: growth(tablesBefore.main, tablesAfter.main),
      visibility: growth(tablesBefore.visibility, tablesAfter.visibility),
    },
    worker: {
      rssIdleEmpty,
      rssWithWallets,
      peak: stack.workerMemory().peak,
      maxCachedWorkflows: cacheSizeFromLog(opts.logDir),
    },
    temporal: {
      rssIdleEmpty: temporalIdleEmpty.rss,
      rssWithWallets: temporalWithWallets.rss,
      processes: temporalWithWallets.processes,
    },
    load: load.stop(),
    callbacks: {
      offeredPerSecond: opts.callbackRate,
      sent: count,
      refused: refused.length,
      counted: latencies.length,
      timedOut,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      max: Math.max(...latencies),
      acceptedP50: percentile(accepted, 50),
      acceptedP99: percentile(accepted, 99),
      backgroundPerSecond,
    },
    ...(opts.steady && {
      steady: {
        pacedPerSecond,
        reconcilingShare: 1 / RECONCILE_RATIO,
        backgroundPollsPerSecond: backgroundPolls,
        backgroundReconcilesPerSecond: backgroundReconciles,
      },
    }),
  };
  say(
    `  callbacks: p50 ${result.callbacks.p50.toFixed(0)} ms, p99 ${result.callbacks.p99.toFixed(0)} ms, ingress accepted p99 ${percentile(accepted, 99).toFixed(0)} ms, ${timedOut} not counted, ${backgroundPerSecond.toFixed(1)} idle calls/s meanwhile`,
  );
  // The wallets go with their stack: each size and topology has a fresh one.
  return result;
}

/** Sends one signed deposit callback through the ingress; when it was sent and when the ingress answered 200. */
/** A callback as the provider sends it: to the wallet's own callback URL, which names its workflow. */
async function sendCallback(
  stack: ScaleStack,
  { walletId, name }: { walletId: string; name: string },
  txId: string,
): Promise<{ sentAt: number; acceptedMs: number }> {
  const body = depositCallback({ id: txId, walletId, status: 'CONFIRMED' });
  const sentAt = Date.now();
  const status = await postCallback(walletCallbackUrl(`${stack.ingressUrl}/callbacks`, name), stack.secretKey, body);
  if (status !== 200) throw new Error(`the ingress answered ${status} to a callback for ${walletId}`);
  return { sentAt, acceptedMs: Date.now() - sentAt };
}

const ms = (t: { seconds?: { toString(): string } | number | null; nanos?: number | null } | null | undefined) =>
  Number(t?.seconds?.toString() ?? 0) * 1000 + (t?.nanos ?? 0) / 1e6;

/**
 * When the wallet counted its callback, read from its history afterwards, so that measuring adds
 * no load while the callbacks run: the first workflow task completed after the first signal
 * received since `sentAt` (each wallet gets one callback). The signal's handler and the ledger's
 * record run in that task; a query answers from it as soon as it completes. Then the wallet's
 * query must list the transaction: counted, not just signalled.
 */
async function countedAt(
  stack: ScaleStack,
  workflowId: string,
  txId: string,
  sentAt: number,
): Promise<number | undefined> {
  const handle = stack.client.workflow.getHandle(workflowId);
  const view = await handle.query(walletQuery);
  if (!view.recentTransactions.some((e) => e.id === txId)) return undefined;
  const events = (await handle.fetchHistory()).events ?? [];
  const signal = events.findIndex(
    (e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED && ms(e.eventTime) >= sentAt - 5,
  );
  if (signal < 0) return undefined;
  const done = events.slice(signal).find((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED);
  return done ? ms(done.eventTime) - sentAt : undefined;
}

/** Cores, CPU model, memory and Node version: what the report says each row was measured on. */
export function thisMachine(): string {
  return `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
}

/** The machine's 1-minute load average every 5 s until stopped: its mean and max (the machine is shared). */
function sampleLoad(): { stop(): { mean: number; max: number } } {
  const samples = [loadavg()[0]!];
  const timer = setInterval(() => samples.push(loadavg()[0]!), 5_000).unref();
  return {
    stop() {
      clearInterval(timer);
      return { mean: samples.reduce((a, b) => a + b, 0) / samples.length, max: Math.max(...samples) };
    },
  };
}

/** maxCachedWorkflows the newest worker printed at start. */
function cacheSizeFromLog(logDir: string): number | undefined {
  const newest = readdirSync(logDir)
    .filter((f) => f.startsWith('worker-'))
    .sort()
    .at(-1);
  if (!newest) return undefined;
  const m = /"maxCachedWorkflows":(\d+)/.exec(readFileSync(join(logDir, newest), 'utf8'));
  return m ? Number(m[1]) : undefined;
}

// What an idle wallet asks the provider, as the sandbox's request counter names it.
const POLL_ROUTE = 'GET /v2/wallet/:walletId/transactions';
const RECONCILE_ROUTE = 'GET /v2/wallet/:walletId';
