import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedTemporal } from '../src/temporal/embedded.js';
import { freePort } from '../src/temporal/ports.js';
import { SECONDS_ON_THE_DEV_SERVER } from './lib/test-order.js';
import { oneProcessCommand } from './lib/test-timeouts.js';
import { buildTestBundle, runLanes, runNode, testConcurrency, testFiles, useSuitePorts } from './lib/test-run.js';

// `npm test`: one real Temporal dev server (temporary SQLite file) and one workflow bundle for
// the whole run, then node's test runner over every test file (test/cluster/ is for
// `npm run test:cluster`): the unit files in one process, as `npm run test:unit` runs them
// (starting Node and tsx for each was most of their time), then the others in TEST_CONCURRENCY
// lanes, most of a lane's files in one process, chosen by their expected time so that the lanes
// end together (scripts/lib/test-lanes.ts). A summary line for each process.

const say = (line: string) => console.log(`[test] ${line}`);
useSuitePorts('test');
const files = process.argv.slice(2).length
  ? process.argv.slice(2)
  : [...testFiles('test/unit'), ...testFiles('test/integration')];

function isUnitFile(file: string): boolean {
  return /(^|\/)test\/unit\//.test(file);
}

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
  const env = {
    TEMPORAL_ADDRESS: server.address,
    TEST_WORKFLOW_BUNDLE: bundlePath,
    TEST_TEMPORAL_LOG: join(dir, 'temporal.log'),
  };
  const unit = files.filter(isUnitFile);
  const others = files.filter((f) => !isUnitFile(f));
  const unitCode = unit.length ? await runNode(oneProcessCommand(unit), env) : 0;
  const othersCode = others.length
    ? await runLanes(others, env, { concurrency: testConcurrency(), figures: SECONDS_ON_THE_DEV_SERVER, say })
    : 0;
  code = unitCode || othersCode;
} catch (err) {
  console.error(`[test] could not run the tests: ${(err as Error).message}`);
} finally {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(code);
