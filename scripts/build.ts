import { rmSync, writeFileSync } from 'node:fs';
import { bundleWorkflowCode } from '@temporalio/worker';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { workflowBundleConverters } from '../src/temporal/codec.js';
import {
  untracedWorkflowInterceptorModules,
  workflowInterceptorModules,
  workflowsPath,
} from '../worker/create-worker.js';

// `npm run build`: the compiled product in dist/ (plain ES modules that run under Node, with
// declarations and source maps) and the workflow bundle that workers load prebuilt, so that no
// process compiles TypeScript or bundles workflows at run time.

const say = (line: string) => console.log(`[build] ${line}`);
rmSync('dist', { recursive: true, force: true });
say('compiling TypeScript into dist/');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
// Two bundles: with the tracing interceptors (OTEL_EXPORTER_OTLP_ENDPOINT set) and without them.
for (const [file, interceptors] of [
  ['dist/workflow-bundle.js', workflowInterceptorModules],
  ['dist/workflow-bundle-untraced.js', untracedWorkflowInterceptorModules],
] as const) {
  say(`bundling the workflows into ${file}`);
  const { code } = await bundleWorkflowCode({
    workflowsPath,
    workflowInterceptorModules: [...interceptors],
    ...workflowBundleConverters,
    logger: { log() {}, info() {}, warn: console.warn, error: console.error, debug() {}, trace() {} },
  });
  writeFileSync(file, code);
}
say('done');
