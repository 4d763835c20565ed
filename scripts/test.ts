import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedTemporal } from '../src/temporal/embedded.js';
import { freePort } from '../src/temporal/ports.js';
import { buildTestBundle, runTests, testFiles, useSuitePorts } from './lib/test-run.js';

// `npm test`: one real Temporal dev server (temporary SQLite file) and one workflow bundle for
// the whole run, then node's test runner over every test file (test/cluster/ is for
// `npm run test:cluster`), with its summary line.

const say = (line: string) => console.log(`[test] ${line}`);
useSuitePorts('test');
const files = process.argv.slice(2).length
  ? process.argv.slice(2)
  : [...testFiles('test/unit'), ...testFiles('test/integration')];

const dir = mkdtempSync(join(tmpdir(), 'payflows-test-'));
let server: Awaited<ReturnType<typeof startEmbeddedTemporal>> | undefined;
let code = 1;
try {
  const [port, uiPort] = [await freePort(), await freePort()];
  server = await startEmbeddedTemporal({
    port,
    uiPort,
    dbFile: join(dir, 'temporal.sqlite'),
    logFile: join(dir, 'temporal.log'),
    namespace: 'default',
    log: say,
  });
  say(`Temporal dev server ready at ${server.address} (UI ${server.uiUrl})`);
  const bundlePath = await buildTestBundle(dir);
  code = await runTests(files, {
    TEMPORAL_ADDRESS: server.address,
    TEST_WORKFLOW_BUNDLE: bundlePath,
    TEST_TEMPORAL_LOG: join(dir, 'temporal.log'),
  });
} catch (err) {
  console.error(`[test] could not run the tests: ${(err as Error).message}`);
} finally {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(code);
