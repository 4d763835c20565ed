import { fork } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Client, WithStartWorkflowOperation } from '@temporalio/client';
import { bundleWorkflowCode, DefaultLogger, Runtime } from '@temporalio/worker';
import { WalletsClient } from '../workflows/wallet/client.js';
import { SANDBOX_CREDENTIALS } from '../src/config.js';
import { createWallet } from '../src/provider/endpoints.js';
import { workflowBundleConverters } from '../src/temporal/codec.js';
import {
  untracedWorkflowInterceptorModules,
  workflowInterceptorModules,
  workflowInterceptorModulesFor,
} from '../worker/create-worker.js';
import { operatorCalls } from '../scripts/fixtures/operator.js';
import { startStack, startWorker, stopStack } from '../scripts/lib/stack.js';
import { transactionSignal, walletQuery, walletWorkflowId } from '../workflows/wallet/messages.js';
import { WALLET_TIMING_DEFAULTS } from '../workflows/wallet/contract.js';
import { workflowPreloadModules } from '../worker/preload-modules.js';
import { cpuMeter } from './cpu.js';
import { depositCallback, postCallback } from './protocol.js';
import { type Figure, rotatedPasses, runConcurrently, span, terminateAll, timedLoad, until } from './measure.js';
import { linearFit, percentile } from './scale/arith.js';
import { startContractEdges } from './contract-edges.js';
import { benchVersioningEnv } from './versioning.js';
import { bareOpen, bareSeen, bareTransaction } from './workflows/bare-wallet.js';

/** A bench's stack: on loopback, with the sandbox, without the ingress's operations port or a codec server. */
export const BENCH_STACK = { ports: 'ephemeral', sandbox: {}, ingressOps: 'none', codecServer: 'none' } as const;

// Figures that need the whole stack: a Temporal server (the embedded dev server, or the one at
// `clusterAddress`, e.g. `npm run cluster`'s), the sandbox, the ingress and a worker in
// this process. Each compares the product with Temporal itself doing the same on the same server.

export async function stackFigures(
  say: (line: string) => void,
  clusterAddress?: string,
): Promise<{ server: string; figures: Figure[] }> {
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const dir = mkdtempSync(join(tmpdir(), 'payflows-bench-'));
  const cleanups: Parameters<typeof stopStack>[0] = [];
  try {
    const server = clusterAddress
      ? `Temporal on PostgreSQL at ${clusterAddress}`
      : 'the Temporal CLI dev server (SQLite)';
    // As a worker bundles them (worker/create-worker.ts): the product's with its preloaded modules.
    const bundleOf = async (
      index: string,
      interceptors = workflowInterceptorModules,
      preload = workflowPreloadModules,
    ) => {
      const { code } = await bundleWorkflowCode({
        workflowsPath: fileURLToPath(new URL(index, import.meta.url)),
        workflowInterceptorModules: interceptors,
        preloadModules: [...preload],
        ...workflowBundleConverters,
        logger: { log() {}, info() {}, warn() {}, error: console.error, debug() {}, trace() {} },
      });
      const path = join(dir, `${randomUUID()}.js`);
      writeFileSync(path, code);
      return path;
    };
    // The stack's worker exports no traces (it is given no tracing), so it runs the bundle without the
    // tracing interceptors, as a deployed worker does (worker/create-worker.ts). A second worker runs
    // the one with them, as with tracing on: the wallet flow is measured on both.
    const bundlePath = await bundleOf('./workflows/index.ts', workflowInterceptorModulesFor({ tracing: false }));
    const tracedBundlePath = await bundleOf('./workflows/index.ts', workflowInterceptorModulesFor({ tracing: true }));

    const [apiKey, secretKey] = ['AK-BENCH', `SK-BENCH-${randomUUID()}`];
    const taskQueue = `bench-${randomUUID()}`;
    const pollIntervalMs = 3_600_000;
    // Every provider call the worker makes, by endpoint: what polling costs is counted, not inferred.
    const calls = new Map<string, number>();
    const stack = await startStack({
      settings: {
        ...(clusterAddress ? { TEMPORAL_ADDRESS: clusterAddress } : { TEMPORAL_DB_FILE: join(dir, 'temporal.sqlite') }),
        TEMPORAL_TASK_QUEUE: taskQueue,
        PROVIDER_API_KEY: apiKey,
        PROVIDER_SECRET_KEY: secretKey,
        PROVIDER_ACCOUNT_ID: SANDBOX_CREDENTIALS.accountId,
        WALLET_POLL_INTERVAL: `${pollIntervalMs}ms`,
        PAYLOAD_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        CLAIM_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
        ...benchVersioningEnv,
      },
      ...BENCH_STACK,
      temporalLogFile: join(dir, 'temporal.log'),
      worker: async ({ client, sandboxUrl }) => {
        // The wallet flow's floor under the provider's contract (bench/contract-edges.ts).
        const edges = await startContractEdges({ sandboxUrl: sandboxUrl!, apiKey, secretKey, client });
        cleanups.push(() => edges.close());
        return {
          workflowBundlePath: bundlePath,
          extraActivities: { echo: async (v: string) => v, ...edges.activities },
          onProviderCall: ({ endpoint }) => void calls.set(endpoint, (calls.get(endpoint) ?? 0) + 1),
        };
      },
      log: say,
      stops: cleanups,
    });
    say(`stack on ${server}`);
    const { address, client, settings, sandboxUrl, ingressUrl } = stack;
    const [provider, serverPid] = [stack.provider!, stack.temporal?.pid];
    const wallets = new WalletsClient(client, { taskQueue, pollIntervalMs });
    const tracedTaskQueue = `${taskQueue}-traced`;
    await startWorker(stack.config, { workflowBundlePath: tracedBundlePath, taskQueue: tracedTaskQueue }, cleanups);
    const tracedWallets = new WalletsClient(client, { taskQueue: tracedTaskQueue, pollIntervalMs });
    const figures: Figure[] = [];

    // 1. The ingress against the client's own signalWithStart of the same workflows.
    // Wallets the provider knows, as in production (a wallet it does not know ends its follower).
    const walletIds = (
      await Promise.all(
        Array.from({ length: 64 }, (_, i) => provider.call(createWallet, { body: { name: `bench-${i}` } })),
      )
    ).map((w) => w.id);
    let n = 0;
    const tx = (walletId: string) =>
      depositCallback({ id: `TR_B${(n++).toString(36).toUpperCase()}`, walletId, status: 'PENDING' });
    // A 503 (Temporal slower than the ingress waits) is resent, as the provider does; counted.
    let resent = 0;
    const viaIngress = async () => {
      const body = tx(walletIds[n % walletIds.length]!);
      for (let attempt = 1; ; attempt++) {
        const status = await postCallback(`${ingressUrl}/callbacks`, secretKey, body);
        if (status === 200) return;
        if (status !== 503 || attempt === 3) throw new Error(`the ingress answered ${status}`);
        resent += 1;
      }
    };
    const direct = async () => {
      const walletId = walletIds[n % walletIds.length]!;
      await client.workflow.signalWithStart('walletWorkflow', {
        workflowId: walletWorkflowId(walletId),
        taskQueue,
        args: [{ walletId, pollIntervalMs }],
        signal: transactionSignal,
        signalArgs: [JSON.parse(tx(walletId))],
      });
    };
    say('ingress vs signalWithStart: warming up');
    await runConcurrently(direct, 32, span(3_000));
    await runConcurrently(viaIngress, 32, span(3_000));
    say('ingress vs signalWithStart: 32 in flight');
    const [ingressRate, directRate] = [
      await runConcurrently(viaIngress, 32, span(8_000)),
      await runConcurrently(direct, 32, span(8_000)),
    ];
    figures.push({
      name: 'ingress: callbacks/s at 32 in flight, vs the client’s own signalWithStart',
      unit: '/s',
      product: ingressRate.rate,
      yardstick: directRate.rate,
    });
    say('ingress vs signalWithStart: 100/s offered (a warm pass, then the measured one)');
    await timedLoad(viaIngress, 100, span(3_000));
    await timedLoad(direct, 100, span(3_000));
    const [ingressLat, directLat] = [
      await timedLoad(viaIngress, 100, span(6_000)),
      await timedLoad(direct, 100, span(6_000)),
    ];
    if (resent) say(`ingress: ${resent} callbacks answered 503 and were resent`);
    for (const p of [50, 99])
      figures.push({
        name: `ingress: p${p} latency at 100/s, vs signalWithStart`,
        unit: 'ms',
        product: percentile(ingressLat, p),
        yardstick: percentile(directLat, p),
        lowerIsBetter: true,
      });
    await terminateAll(client, walletIds.map(walletWorkflowId), 'bench done');

    // 2. A whole wallet flow against the smallest workflow with one activity.
    const { op } = operatorCalls(sandboxUrl!);
    const sandboxOp = async (path: string) =>
      (await op<{ transaction: { id: string } }>('POST', path, { currency: 'BTC', amount: 0.5 })).transaction.id;
    const opened: string[] = [];
    // Where a flow's time goes, each step's times over the measured pass: to tell what the contract
    // requires (a provider create, two callbacks) from what the product adds.
    const phases = new Map<string, number[]>();
    const stopwatch = () => {
      let last = performance.now();
      return (phase: string) => {
        const now = performance.now();
        phases.set(phase, [...(phases.get(phase) ?? []), now - last]);
        last = now;
      };
    };
    const mean = (phase: string) =>
      (phases.get(phase) ?? []).reduce((a, b) => a + b, 0) / (phases.get(phase)?.length ?? 1);
    // Its steps' times are kept on the worker without tracing, the one deployed by default.
    const walletFlowOn = (on: WalletsClient, laps: 'timed' | 'untimed') => async () => {
      const lap = laps === 'timed' ? stopwatch() : () => {};
      const { walletId, walletWorkflowId: workflowId } = await on.open({ name: `bench-${randomUUID()}` });
      opened.push(workflowId);
      lap('open');
      const txId = await sandboxOp(`/sandbox/wallets/${walletId}/deposits`);
      lap('deposit');
      await sandboxOp(`/sandbox/transactions/${txId}/confirm`);
      lap('confirm');
      const follower = client.workflow.getHandle(workflowId);
      await until(
        async () => (await follower.query(walletQuery)).balances.BTC?.confirmed === '0.5',
        `wallet ${walletId}'s confirmed deposit`,
      );
      lap('counted');
    };
    const walletFlow = walletFlowOn(wallets, 'timed');
    const tracedWalletFlow = walletFlowOn(tracedWallets, 'untimed');
    // The same flow in raw workflow code (bench/workflows/bare-wallet.ts): its floor on this SDK,
    // on the same worker (its interceptors and data converter), as the minimal workflow is. With
    // the contract's edges, the create is a signed request to the sandbox, and the two signals come
    // from the sandbox's callbacks for the deposit and its confirmation; without them, the flow
    // sends its two signals itself.
    const bare: string[] = [];
    const rawFlow = (edges: 'none' | 'contract') => async () => {
      const lap = stopwatch();
      const workflowId = `${edges === 'contract' ? 'bare-contract' : 'bare'}-${randomUUID()}`;
      const opening = new WithStartWorkflowOperation('bareWalletWorkflow', {
        workflowId,
        taskQueue,
        args: [workflowId, edges],
        workflowIdConflictPolicy: 'FAIL',
      });
      bare.push(workflowId); // terminated at the end, even if its opening fails
      const walletId = await client.workflow.executeUpdateWithStart(bareOpen, { startWorkflowOperation: opening });
      const handle = await opening.workflowHandle();
      if (edges === 'contract') {
        const txId = await sandboxOp(`/sandbox/wallets/${walletId}/deposits`);
        await sandboxOp(`/sandbox/transactions/${txId}/confirm`);
      } else {
        await handle.signal(bareTransaction, 'pending');
        await handle.signal(bareTransaction, 'confirmed');
      }
      await until(async () => (await handle.query(bareSeen)).transactions.length === 2, `${workflowId}'s two signals`);
      lap(edges === 'contract' ? 'contract' : 'bare');
    };
    const minimal = async () => {
      const lap = stopwatch();
      await client.workflow.execute('minimalWorkflow', {
        workflowId: `minimal-${randomUUID()}`,
        taskQueue,
        args: ['x'],
      });
      lap('minimal');
    };
    const flows = [walletFlow, rawFlow('contract'), rawFlow('none'), minimal, tracedWalletFlow];
    const named = 'wallet flow, its floor under the contract, its floor, minimal workflow, wallet flow traced';
    say(`${named}: warming up`);
    for (const flow of flows) await runConcurrently(flow, 8, span(3_000));
    const passes = rotatedPasses(flows.length);
    say(`${named}: 8 in flight, each ${flows.length} times, in ${flows.length} rounds that each start one further on`);
    phases.clear();
    // Rotated (A B C D E, B C D E A, …): every flow runs once in every place of a round. Forth and back
    // (A … E E … A) put the product's flow at both ends of the run, where every flow's CPU read highest.
    const rates = flows.map(() => 0);
    // The product's flow against the floor under the contract, round by round: how far one round's ratio moves.
    const roundRates = flows.map(() => [] as number[]);
    // And the CPU each spent, over the same passes: where a flow's cost lies, whatever the machine's load.
    const cpu = flows.map(() => ({ process: 0, server: 0, calls: 0 }));
    for (const i of passes) {
      const spent = cpuMeter(serverPid);
      const pass = await runConcurrently(flows[i]!, 8, span(8_000));
      // The pass's tail (the server's transfer and visibility tasks, timers restarted) is its own.
      await new Promise((r) => setTimeout(r, 1_000));
      const { processMs, serverMs } = spent();
      rates[i]! += pass.rate / flows.length;
      roundRates[i]!.push(pass.rate);
      say(
        `  ${named.split(', ')[i]}: ${pass.rate.toFixed(1)}/s, CPU ms per flow ${(processMs / pass.calls).toFixed(1)} + ${((serverMs ?? NaN) / pass.calls).toFixed(1)}`,
      );
      cpu[i] = {
        process: cpu[i]!.process + processMs,
        server: cpu[i]!.server + (serverMs ?? NaN),
        calls: cpu[i]!.calls + pass.calls,
      };
    }
    const [flowRate, contractRate, bareRate, minimalRate, tracedRate] = rates as [
      number,
      number,
      number,
      number,
      number,
    ];
    say(
      `wallet flow / its floor under the contract, round by round: ${roundRates[0]!.map((rate, round) => (rate / roundRates[1]![round]!).toFixed(2)).join(', ')}`,
    );
    const cpuPer = cpu.map((c) => ({ process: c.process / c.calls, server: c.server / c.calls }));
    const perFlow = cpuPer.map((c, i) => `${named.split(', ')[i]} ${c.process.toFixed(1)} + ${c.server.toFixed(1)}`);
    say(`CPU ms per flow (this process + the Temporal server): ${perFlow.join('; ')}`);
    const ms = (phase: string) => mean(phase).toFixed(0);
    say(
      `wallet flow, mean ms at 8 in flight: open ${ms('open')}, deposit answered ${ms('deposit')}, confirm answered ${ms('confirm')}, then counted ${ms('counted')}; its floor under the contract ${ms('contract')}; its floor ${ms('bare')}; a minimal workflow ${ms('minimal')}`,
    );
    const minimalMs = mean('minimal');
    for (const [phase, meanMs] of [
      ['opening a wallet (an update-with-start of the workflow that follows it, the provider’s create)', mean('open')],
      [
        'the deposit and its confirmation at the sandbox (each answered once the ingress took its callback and signalled the wallet)',
        mean('deposit') + mean('confirm'),
      ],
      [
        'from the confirmation’s answer to the query showing it (the signal’s workflow task, queries 20 ms apart)',
        mean('counted'),
      ],
    ] as const)
      figures.push({
        name: `wallet flow’s share: ${phase}, mean at 8 in flight, vs a minimal workflow’s run`,
        unit: 'ms',
        product: meanMs,
        yardstick: minimalMs,
        lowerIsBetter: true,
      });
    figures.push({
      name: 'wallet flows/s (open, deposit pending, confirm, query shows it), vs the same flow in raw workflow code on the same worker (one workflow: an update-with-start running one local activity, two signals, a query)',
      unit: '/s',
      product: flowRate,
      yardstick: bareRate,
    });
    // What the goal below asks is within reach of a flow with no overhead of its own: this says how far.
    figures.push({
      name: 'the wallet flow in raw workflow code (the floor above), vs a minimal workflow with one activity',
      unit: '/s',
      product: bareRate,
      yardstick: minimalRate,
    });
    // The contract's edges run on the same cores (the sandbox's create, deposit, confirmation and its
    // two signed callbacks): what the goal below leaves to any implementation once they are paid.
    figures.push({
      name: 'wallet flows/s, vs the raw flow with the contract’s edges on the same worker (the create a signed request to the sandbox, the two signals its signed callbacks through a bare receiver)',
      unit: '/s',
      product: flowRate,
      yardstick: contractRate,
      goal: 0.9,
    });
    // Where the product's extra cost lies (a cluster's server is not this machine's child: not read).
    if (serverPid !== undefined)
      for (const [where, key] of [
        ['this process (worker, sandbox, ingress, the bench’s client)', 'process'],
        ['the Temporal server', 'server'],
      ] as const)
        figures.push({
          name: `CPU per wallet flow in ${where}, vs the raw flow with the contract’s edges (same passes)`,
          unit: 'ms',
          product: cpuPer[0]![key],
          yardstick: cpuPer[1]![key],
          lowerIsBetter: true,
        });
    // Tracing is opt-in (docs/operations.md): what its workflow interceptors cost, spans made and not exported.
    figures.push({
      name: 'wallet flows/s on a worker with the tracing interceptors bundled (as with tracing on; spans made, exported nowhere), vs the raw flow with the contract’s edges',
      unit: '/s',
      product: tracedRate,
      yardstick: contractRate,
    });
    if (serverPid !== undefined)
      figures.push({
        name: 'CPU per wallet flow in this process with the tracing interceptors bundled, vs without them (same passes)',
        unit: 'ms',
        product: cpuPer[4]!.process,
        yardstick: cpuPer[0]!.process,
        lowerIsBetter: true,
      });
    figures.push({
      name: 'the raw flow with the contract’s edges (the floor under the contract above), vs a minimal workflow with one activity',
      unit: '/s',
      product: contractRate,
      yardstick: minimalRate,
    });
    figures.push({
      name: 'wallet flows/s (open, deposit pending, confirm, query shows it), vs a minimal workflow with one activity',
      unit: '/s',
      product: flowRate,
      yardstick: minimalRate,
      goal: 0.7,
    });
    await terminateAll(client, [...bare, ...opened], 'bench done');

    // 3. Memory a cached wallet workflow holds, in a worker process of its own, against the floor:
    // the least a waiting workflow can be, on the same SDK and worker options, in its own bundle.
    const ctx = { address, settings, client, say };
    const walletLoad = (taskQueue: string) => ({
      warm: () =>
        ctx.client.workflow.execute('minimalWorkflow', { workflowId: `warm-${randomUUID()}`, taskQueue, args: ['x'] }),
      one: async () => {
        const walletId = `WA_MEM${randomUUID().slice(0, 8).toUpperCase()}`;
        const handle = await ctx.client.workflow.start('walletWorkflow', {
          workflowId: walletWorkflowId(walletId),
          taskQueue,
          args: [{ walletId, pollIntervalMs: 3_600_000, opened: true }],
        });
        await handle.query(walletQuery);
      },
    });
    const floor = await memoryPerCached({
      ...ctx,
      bundlePath: await bundleOf('./floor/workflows.ts', [], []),
      what: 'the floor (a workflow awaiting a signal, alone in its bundle)',
      load: (taskQueue) => ({
        // Released at once: it creates the worker's context and leaves the cache.
        warm: async () => {
          const handle = await ctx.client.workflow.signalWithStart('floorWorkflow', {
            workflowId: `warm-${randomUUID()}`,
            taskQueue,
            signal: 'release',
          });
          await handle.result();
        },
        one: async () => {
          const handle = await ctx.client.workflow.start('floorWorkflow', {
            workflowId: `floor-${randomUUID()}`,
            taskQueue,
          });
          // A built-in query: answered once the first task ran, so the workflow is in the cache.
          await handle.query('__temporal_workflow_metadata');
        },
      }),
    });
    const wallet = await memoryPerCached({
      ...ctx,
      bundlePath,
      what: "the product's bundle",
      load: walletLoad,
    });
    // The tracing interceptors' share: the bundle a worker loads when no traces are exported.
    const untraced = await memoryPerCached({
      ...ctx,
      bundlePath: await bundleOf('./workflows/index.ts', untracedWorkflowInterceptorModules),
      what: "the product's bundle without the tracing interceptors",
      load: walletLoad,
    });
    for (const m of [wallet, untraced])
      figures.push(
        {
          name: `RSS per cached wallet workflow in ${m.what}, read after a GC (workflows in the main thread), vs the floor (goal: at most 2×)`,
          unit: 'MB',
          product: m.collectedRssMB,
          yardstick: floor.collectedRssMB,
          goal: 0.5,
          lowerIsBetter: true,
        },
        {
          name: `RSS per cached wallet workflow in ${m.what}, as deployed (workflows in the SDK's thread, never collected before a reading), vs the floor's`,
          unit: 'MB',
          product: m.rssMB,
          yardstick: floor.rssMB,
          lowerIsBetter: true,
        },
        {
          name: `V8 heap (after GC) per cached wallet workflow in ${m.what}, vs the floor (goal: at most 2×)`,
          unit: 'MB',
          product: m.heapMB,
          yardstick: floor.heapMB,
          goal: 0.5,
          lowerIsBetter: true,
        },
      );
    for (const m of [wallet, untraced])
      figures.push({
        name: `RSS per cached wallet workflow in ${m.what}, vs the goal of 0.25 MB`,
        unit: 'MB',
        product: m.rssMB,
        yardstick: 0.25,
        goal: 1,
        lowerIsBetter: true,
        absolute: true,
      });

    // 4. What an idle wallet costs a day: provider calls and history, from a run whose poll
    // interval is scaled down (a simulated day of minutes), scaled back to a real day.
    figures.push(...(await idleWalletCost({ client, calls, taskQueue, say })));

    return { server, figures };
  } finally {
    await stopStack(cleanups);
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * What one cached workflow of a kind costs a worker, in MB (10^6 bytes), in two passes. RSS: the
 * worker as deployed, its workflows in the SDK's worker thread. Heap: the same worker with
 * `debugMode`, which runs the workflows in the main thread, the one isolate whose heap the process
 * can collect and read; its RSS, read after that GC, is what a ratio of RSS against the floor uses:
 * the floor's RSS in the SDK's thread, never collected before a reading, fits its count poorly and
 * can come out below its own heap, so that a ratio over it would measure the noise.
 */
export async function memoryPerCached(ctx: Omit<Parameters<typeof cachedMemory>[0], 'debugMode'>) {
  const threaded = await cachedMemory({ ...ctx, debugMode: false });
  const inMainThread = await cachedMemory({ ...ctx, debugMode: true });
  return { what: ctx.what, rssMB: threaded.rssMB, heapMB: inMainThread.heapMB, collectedRssMB: inMainThread.rssMB };
}

/**
 * Workflows of one kind into a worker's cache, in a process of its own, in 3 steps of `step` (300 unless given):
 * the cost of one more cached workflow is the slope of its memory over the count (least squares),
 * so that what the first workflows bring once (code compiled, pools grown) is not spread over
 * them. Steps of 300, because with smaller ones the reuse of a few MB of freed pages swamps the
 * floor's RSS slope (bench/results). `load` warms the worker (its first
 * workflow creates the shared V8 context) and starts one workflow, returning once it is cached.
 */
async function cachedMemory(ctx: {
  address: string;
  bundlePath: string;
  settings: Record<string, string>;
  say: (l: string) => void;
  what: string;
  debugMode: boolean;
  /** Workflows added between two readings; fewer for workflows that each hold more. */
  step?: number;
  load: (taskQueue: string) => { warm: () => Promise<unknown>; one: () => Promise<unknown> };
}): Promise<{ rssMB: number; heapMB: number }> {
  const STEP = span(ctx.step ?? 300);
  const N = 3 * STEP;
  const taskQueue = `bench-memory-${randomUUID()}`;
  const child = fork(fileURLToPath(new URL('./memory-worker.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    // The stack's settings (the sandbox and the ingress where it started them), on a queue of its own.
    env: {
      ...process.env,
      ...ctx.settings,
      TEMPORAL_ADDRESS: ctx.address,
      TEMPORAL_TASK_QUEUE: taskQueue,
      BENCH_BUNDLE: ctx.bundlePath,
      BENCH_CACHE: String(N + 50),
      BENCH_DEBUG_MODE: ctx.debugMode ? '1' : '',
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = () =>
    new Promise<{ rss: number; heap: number }>((resolve) =>
      child.once('message', (m) => resolve(m as { rss: number; heap: number })),
    );
  const memory = async () => (child.send('memory'), next());
  try {
    await next();
    const { warm, one } = ctx.load(taskQueue);
    await warm();
    ctx.say(
      `memory: ${N} workflows into one worker's cache, ${STEP} at a time (${ctx.what}${ctx.debugMode ? ', in the main thread' : ''})`,
    );
    const points: Array<{ count: number; rss: number; heap: number }> = [];
    let started = 0;
    for (let count = STEP; count <= N; count += STEP) {
      await runConcurrently(async () => (started < count ? (started++, one()) : undefined), 16, 120_000, STEP);
      if (started < count) throw new Error(`memory: only ${started} of ${count} workflows started in 120 s`);
      points.push({ count, ...(await memory()) });
    }
    const rss = linearFit(points.map((p) => [p.count, p.rss] as const));
    const heap = linearFit(points.map((p) => [p.count, p.heap] as const));
    ctx.say(
      `  per workflow: RSS ${(rss.b / 1e6).toFixed(3)} MB (r² ${rss.r2.toFixed(2)}), heap ${(heap.b / 1e6).toFixed(3)} MB (r² ${heap.r2.toFixed(2)})`,
    );
    return { rssMB: rss.b / 1e6, heapMB: heap.b / 1e6 };
  } finally {
    child.send('stop');
    await new Promise((r) => child.once('exit', r));
  }
}

async function idleWalletCost(ctx: {
  client: Client;
  calls: Map<string, number>;
  taskQueue: string;
  say: (l: string) => void;
}): Promise<Figure[]> {
  const K = 5;
  // The wallet's defaults scaled down together, a simulated minute 100 ms. Past the first quiet
  // "day"'s ramp (1 + 2 + … + 64 simulated minutes, then the ceiling), a window of quiet, counted
  // as provider calls and history bytes, scaled back to a real day.
  const sim = (ms: number) => (ms * 100) / WALLET_TIMING_DEFAULTS.pollIntervalMs;
  const { pollIntervalMs, pollMaxMs, reconcileIntervalMs } = WALLET_TIMING_DEFAULTS;
  const wallets = new WalletsClient(ctx.client, {
    taskQueue: ctx.taskQueue,
    pollIntervalMs: sim(pollIntervalMs),
    pollMaxMs: sim(pollMaxMs),
    reconcileIntervalMs: sim(reconcileIntervalMs),
  });
  const rampMs = sim(140 * 60_000);
  const windowMs = span(60_000);
  const simDay = sim(86_400_000);
  ctx.say(
    `idle wallets: ${K} wallets, a simulated day of ${simDay / 1000} s; ${rampMs / 1000} s of ramp, then ${windowMs / 1000} s measured`,
  );
  const opened = await Promise.all(Array.from({ length: K }, () => wallets.open({ name: `idle-${randomUUID()}` })));
  const measure = async () => {
    let bytes = 0;
    for (const w of opened)
      bytes += Number(
        (await ctx.client.workflow.getHandle(w.walletWorkflowId).describe()).raw.workflowExecutionInfo
          ?.historySizeBytes ?? 0,
      );
    const calls = (ctx.calls.get('list wallet transactions') ?? 0) + (ctx.calls.get('read wallet') ?? 0);
    return { calls, bytes };
  };
  await new Promise((r) => setTimeout(r, rampMs));
  const before = await measure();
  const started = performance.now();
  await new Promise((r) => setTimeout(r, windowMs));
  const after = await measure();
  const realDays = (performance.now() - started) / simDay;
  await terminateAll(
    ctx.client,
    opened.map((w) => w.walletWorkflowId),
    'bench done',
  );
  const callsPerDay = (after.calls - before.calls) / K / realDays;
  const kbPerDay = (after.bytes - before.bytes) / K / realDays / 1024;
  return [
    {
      name: 'provider calls per idle wallet per day after its first quiet day (polls and reconciliation at the defaults), vs the goal of 24',
      unit: 'calls/day',
      product: callsPerDay,
      yardstick: 24,
      goal: 1,
      lowerIsBetter: true,
      absolute: true,
    },
    {
      name: 'history written per idle wallet per day, vs 24 empty polls of 1 KB',
      unit: 'KB/day',
      product: kbPerDay,
      yardstick: 24,
      goal: 1,
      lowerIsBetter: true,
      absolute: true,
    },
  ];
}
