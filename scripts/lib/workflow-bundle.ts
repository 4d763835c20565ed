import { bundleWorkflowCode } from '@temporalio/worker';
import { workflowBundleConverters } from '../../src/temporal/codec.js';
import { workflowsPath } from '../../worker/create-worker.js';
import { workflowPreloadModules } from '../../worker/preload-modules.js';

// What a workflow bundle holds, for `npm run build` to print and test/integration/workflow-bundle.test.ts
// to hold to a budget. Every cached workflow instantiates the bundle's own modules again (the SDK's
// modules are shared: docs/capacity.md), so what goes in costs memory per workflow, not once.

/**
 * The most JavaScript a bundle may hold, source map aside: a little above what the product's
 * workflows need, so that a module that drags in a library (zod, OpenTelemetry) fails the build's
 * test rather than every cached workflow's memory. `npm run build` prints today's size.
 */
export const WORKFLOW_BUNDLE_BUDGET_BYTES = { untraced: 910_000, traced: 925_000 } as const;

/**
 * Modules that must never be in a bundle: zod and the schemas built with it (each process's checks.ts
 * in workflows/ instead), and the processes' clients (their edges, for backends).
 */
const FORBIDDEN = [
  /node_modules\/zod\//,
  /\.schema\.ts$/,
  /\/workflows\/[^/]+\/(client|[a-z-]+-client|client-errors)\.ts$/,
  /src\/provider\/schemas\//,
  /src\/claims\/ref\.ts$/,
];

export interface BundleFacts {
  /** The JavaScript that is evaluated, without the inline source map. */
  codeBytes: number;
  totalBytes: number;
  /** The bundle's modules (webpack ids such as ./workflows/wallet/workflow.ts). */
  modules: string[];
  /** Modules that are forbidden in workflow code. */
  forbidden: string[];
}

export function bundleFacts(code: string): BundleFacts {
  const mapAt = code.lastIndexOf('\n//# sourceMappingURL=');
  const body = mapAt >= 0 ? code.slice(0, mapAt) : code;
  const modules = [...body.matchAll(/^\/\*\*\*\/ "([^"]+)"/gm)].map((m) => m[1]!);
  return {
    codeBytes: Buffer.byteLength(body),
    totalBytes: Buffer.byteLength(code),
    modules,
    forbidden: modules.filter((m) => FORBIDDEN.some((pattern) => pattern.test(m))),
  };
}

/** The product's workflows, or another module of workflows (a test's version 2 of them). */
export async function bundleWorkflows(
  interceptorModules: readonly string[],
  workflows = workflowsPath,
): Promise<string> {
  const { code } = await bundleWorkflowCode({
    workflowsPath: workflows,
    workflowInterceptorModules: [...interceptorModules],
    preloadModules: [...workflowPreloadModules],
    ...workflowBundleConverters,
    logger: { log() {}, info() {}, warn: console.warn, error: console.error, debug() {}, trace() {} },
  });
  return code;
}

/** One line for the build's output: `0.79 MB of code (+1.50 MB source map), 61 modules`. */
export function describeBundle(facts: BundleFacts, budgetBytes: number): string {
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`;
  return `${mb(facts.codeBytes)} of code (budget ${mb(budgetBytes)}, +${mb(facts.totalBytes - facts.codeBytes)} source map), ${facts.modules.length} modules`;
}
