import { rmSync, writeFileSync } from 'node:fs';
import { bundleWorkflowCode } from '@temporalio/worker';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { workflowBundleConverters } from '../src/temporal/codec.js';
import { workflowInterceptorModules, workflowsPath } from '../worker/create-worker.js';

// `npm run build`: the compiled product in dist/ (plain ES modules that run under Node, with
// declarations and source maps) and the workflow bundle that workers load prebuilt, so that no
// process compiles TypeScript or bundles workflows at run time.

const say = (line: string) => console.log(`[build] ${line}`);
rmSync('dist', { recursive: true, force: true });
say('compiling TypeScript into dist/');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
say('bundling the workflows into dist/workflow-bundle.js');
const { code } = await bundleWorkflowCode({ workflowsPath, workflowInterceptorModules, ...workflowBundleConverters, logger: { log() {}, info() {}, warn: console.warn, error: console.error, debug() {}, trace() {} } });
writeFileSync('dist/workflow-bundle.js', code);
say('done');
