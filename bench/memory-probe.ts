import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { getHeapStatistics } from 'node:v8';
import { bundleWorkflowCode, type BundleOptions } from '@temporalio/worker';
import { ReusableVMWorkflowCreator } from '@temporalio/worker/lib/workflow/reusable-vm.js';
import { workflowBundleConverters } from '../src/temporal/codec.js';
import { untracedWorkflowInterceptorModules, workflowInterceptorModules } from '../worker/create-worker.js';
import { workflowPreloadModules } from '../worker/preload-modules.js';

// `node --expose-gc --import tsx bench/memory-probe.ts`: where a cached workflow's memory goes, with
// no server. Each line is a bundle variant; a workflow is created in the SDK's own reusable V8
// context (ReusableVMWorkflowCreator, as a worker does), which evaluates the bundle's modules and
// runs the interceptors' factories for it, but no activation. The heap it holds after GC, per
// workflow, is the modules' and interceptors' share; the difference between two lines is what the
// modules that differ cost. The workflow's own state is measured by `npm run bench`.

const N = 200;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const quiet = { log() {}, info() {}, warn() {}, error: console.error, debug() {}, trace() {} };

/** The bundle's inline source map, which the SDK reads for stack traces. */
function inlineSourceMap(code: string) {
  const b64 = code.slice(code.lastIndexOf('base64,') + 'base64,'.length).trim();
  return JSON.parse(Buffer.from(b64, 'base64').toString('utf8'));
}

async function perWorkflowHeap(
  options: Omit<BundleOptions, 'logger'>,
  workflowType: string,
): Promise<{ kb: number; modules: number }> {
  const { code } = await bundleWorkflowCode({ ...workflowBundleConverters, ...options, logger: quiet });
  const creator = await ReusableVMWorkflowCreator.create(
    { code, sourceMap: inlineSourceMap(code), filename: 'probe.js' },
    5_000,
    new Set(),
  );
  const info = (runId: string) =>
    ({
      workflowType,
      workflowId: `probe-${runId}`,
      runId,
      taskQueue: 'probe',
      namespace: 'default',
      firstExecutionRunId: runId,
      attempt: 1,
      historyLength: 1,
      historySize: 0,
      continueAsNewSuggested: false,
      searchAttributes: {},
      typedSearchAttributes: [],
      memo: {},
      startTime: new Date(0),
      runStartTime: new Date(0),
      currentBuildId: '',
      unsafe: { isReplaying: false, now: Date.now },
      priority: {},
    }) as never;
  const make = () =>
    creator.createWorkflow({ info: info(randomUUID()), randomnessSeed: [1], now: 0, showStackTraceSources: false });
  const warm = await make(); // the first one shares its modules' code caches: measure the rest
  const held: unknown[] = [warm];
  const settle = () => {
    for (let i = 0; i < 3; i++) gc!();
    return getHeapStatistics().used_heap_size;
  };
  const before = settle();
  for (let i = 0; i < N; i++) held.push(await make());
  const after = settle();
  const modules = [...code.matchAll(/^\/\*\*\*\/ "([^"]+)"/gm)].length;
  for (const w of held) await (w as { dispose(): Promise<void> }).dispose();
  await creator.destroy();
  return { kb: (after - before) / N / 1024, modules };
}

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const product = (interceptors: readonly string[], preload: readonly string[] = []) => ({
  workflowsPath: here('../workflows/index.ts'),
  workflowInterceptorModules: [...interceptors],
  preloadModules: [...preload],
});
const variants: Array<[string, Omit<BundleOptions, 'logger'>]> = [
  ['floor (a waiting workflow, alone)', { workflowsPath: here('./floor/workflows.ts') }],
  ['product, no interceptors', product([])],
  ['product, untraced (counting interceptors)', product(untracedWorkflowInterceptorModules)],
  ['product, untraced, preloaded', product(untracedWorkflowInterceptorModules, workflowPreloadModules)],
  ['product, traced', product(workflowInterceptorModules)],
  ['product, traced, preloaded', product(workflowInterceptorModules, workflowPreloadModules)],
];
const only = process.argv.slice(2);
for (const [name, options] of variants) {
  if (only.length && !only.some((o) => name.includes(o))) continue;
  const { kb, modules } = await perWorkflowHeap(options, name.startsWith('floor') ? 'floorWorkflow' : 'walletWorkflow');
  console.log(`${name.padEnd(48)} ${kb.toFixed(0).padStart(6)} KiB heap per workflow (${modules} modules)`);
}
