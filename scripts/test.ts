import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { workflowBundleConverters } from '../src/temporal/codec.js';
import { startEmbeddedTemporal } from '../src/temporal/embedded.js';
import { freePort } from '../src/temporal/ports.js';
import { workflowInterceptorModules, workflowsPath } from '../worker/create-worker.js';

// `npm test`: one real Temporal dev server (temporary SQLite file) and one workflow bundle for
// the whole run, then node's test runner over every test file, with its summary line.

const say = (line: string) => console.log(`[test] ${line}`);
const files = process.argv.slice(2).length
  ? process.argv.slice(2)
  : (readdirSync('test', { recursive: true }) as string[]).filter((f) => f.endsWith('.test.ts')).sort().map((f) => join('test', f));

const dir = mkdtempSync(join(tmpdir(), 'payflows-test-'));
let server: Awaited<ReturnType<typeof startEmbeddedTemporal>> | undefined;
let code = 1;
try {
  const [port, uiPort] = [await freePort(), await freePort()];
  server = await startEmbeddedTemporal({ port, uiPort, dbFile: join(dir, 'temporal.sqlite'), logFile: join(dir, 'temporal.log'), namespace: 'default', log: say });
  say(`Temporal dev server ready at ${server.address} (UI ${server.uiUrl})`);

  const bundle = await bundleWorkflowCode({ workflowsPath, workflowInterceptorModules, ...workflowBundleConverters, logger: { log() {}, info() {}, warn: console.warn, error: console.error, debug() {}, trace() {} } });
  const bundlePath = join(dir, 'workflow-bundle.js');
  writeFileSync(bundlePath, bundle.code);

  code = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...files], {
      stdio: 'inherit',
      env: { ...process.env, TEMPORAL_ADDRESS: server!.address, TEST_WORKFLOW_BUNDLE: bundlePath, TEST_TEMPORAL_LOG: join(dir, 'temporal.log') },
    });
    const forward = (sig: NodeJS.Signals) => child.kill(sig);
    process.once('SIGINT', forward);
    process.once('SIGTERM', forward);
    child.on('exit', (c, sig) => resolve(c ?? (sig ? 1 : 0)));
  });
} catch (err) {
  console.error(`[test] could not run the tests: ${(err as Error).message}`);
} finally {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(code);
