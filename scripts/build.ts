import { rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { loadConfig } from '../src/config.js';
import { checkoutBuildId } from '../worker/build-id.js';
import { untracedWorkflowInterceptorModules, workflowInterceptorModules } from '../worker/create-worker.js';
import { recordBuiltFrom, sourceFingerprint } from './lib/build-fingerprint.js';
import { bundleFacts, bundleWorkflows, describeBundle, WORKFLOW_BUNDLE_BUDGET_BYTES } from './lib/workflow-bundle.js';

// `npm run build`: the compiled product in dist/ (plain ES modules that run under Node, with
// declarations and source maps) and the workflow bundle that workers load prebuilt, so that no
// process compiles TypeScript or bundles workflows at run time.

const say = (line: string) => console.log(`[build] ${line}`);
// Taken before compiling: a file changed meanwhile makes the next check build again.
const fingerprint = sourceFingerprint();
rmSync('dist', { recursive: true, force: true });
say('compiling TypeScript into dist/');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
let untracedCode = '';
// Two bundles: with the tracing interceptors (OTEL_EXPORTER_OTLP_ENDPOINT set) and without them.
for (const [file, interceptors, budget] of [
  ['dist/workflow-bundle.js', workflowInterceptorModules, WORKFLOW_BUNDLE_BUDGET_BYTES.traced],
  ['dist/workflow-bundle-untraced.js', untracedWorkflowInterceptorModules, WORKFLOW_BUNDLE_BUDGET_BYTES.untraced],
] as const) {
  say(`bundling the workflows into ${file}`);
  const code = await bundleWorkflows(interceptors);
  if (interceptors === untracedWorkflowInterceptorModules) untracedCode = code;
  const facts = bundleFacts(code);
  // Every cached workflow would build these again (docs/capacity.md): refuse to ship them.
  if (facts.forbidden.length)
    throw new Error(
      `${file} holds ${facts.forbidden.join(', ')}: workflow code checks with workflows/*/checks.ts, not zod`,
    );
  writeFileSync(file, code);
  say(`${file}: ${describeBundle(facts, budget)}${facts.codeBytes > budget ? ' — OVER BUDGET' : ''}`);
}
// The worker's version in its Worker Deployment (worker/build-id.ts): WORKER_BUILD_ID (in the image, its
// build argument), else the checkout's commit (`<commit>-dirty-<hash>` from a modified tree: never the
// clean commit's id for other code), else the workflow bundle's own hash (a build from a copy without
// .git, such as a Docker context): the same code gets the same id.
const buildId =
  process.env.WORKER_BUILD_ID ||
  checkoutBuildId(process.cwd()) ||
  `bundle-${createHash('sha256').update(untracedCode).digest('hex').slice(0, 12)}`;
loadConfig({ WORKER_BUILD_ID: buildId }); // refuses an id Temporal would not take, naming the variable
// Beside dist/worker/, where the compiled worker reads it (BUILD_ID_FILE).
writeFileSync('dist/build-id.txt', `${buildId}\n`);
say(`build id ${buildId} (dist/build-id.txt)`);
recordBuiltFrom(fingerprint);
say('done');
