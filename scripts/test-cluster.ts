import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { ensureChromium } from './lib/chromium.js';
import { startClusterTopology, topologyRun, writeTopologyFile } from './lib/product-processes.js';
import { clusterPhases, clusterSuiteFiles } from './lib/cluster-suite-files.js';
import { SECONDS_ON_THE_CLUSTER } from './lib/test-order.js';
import { buildTestBundle, runLanes, runTests, testConcurrency, testFiles, useSuitePorts } from './lib/test-run.js';

// `npm run test:cluster`: the integration suite against the PostgreSQL-backed cluster of
// `npm run cluster` instead of the dev server, and the tests that need the whole topology
// (test/cluster/: two ingress replicas and two workers as processes, Prometheus, the production
// build). One cluster for the whole run; its description goes to the tests as TEST_CLUSTER.
// The files run in TEST_CONCURRENCY lanes, most of a lane's files in one process
// (scripts/lib/test-lanes.ts), but for those scripts/lib/cluster-suite-files.ts names: left to
// `npm test`, run alone, a process each, most of them before the others, or apart from the cluster
// beside those.

// Once the tests run, runTests passes a signal on to them, and the cluster stops after them.
useSuitePorts('cluster');
const { say, signal, dir } = topologyRun('test:cluster');
const files = process.argv.slice(2).length
  ? process.argv.slice(2)
  : clusterSuiteFiles(testFiles('test/integration'), testFiles('test/cluster'));
const started = Date.now();
let code = 1;
let cluster: Awaited<ReturnType<typeof startClusterTopology>> | undefined;
try {
  cluster = await startClusterTopology({
    dir,
    log: say,
    signal,
    // A drained version shows drained within seconds, not the default 3 to 6 minutes
    // (test/cluster/worker-versioning.test.ts).
    dynamicConfig: {
      'matching.wv.VersionDrainageStatusVisibilityGracePeriod': '5s',
      'matching.wv.VersionDrainageStatusRefreshInterval': '5s',
    },
  });
  const { temporal, product } = cluster;
  say(`cluster ready in ${Math.round((Date.now() - started) / 1000)} s (state and logs in ${dir})`);
  const description = writeTopologyFile(dir, cluster);
  const bundlePath = await buildTestBundle(dir);
  // The browser test drives Debian's Chromium (test/helpers/browser.ts).
  ensureChromium(say);
  signal.throwIfAborted();
  const env = {
    TEMPORAL_ADDRESS: temporal.address,
    TEST_WORKFLOW_BUNDLE: bundlePath,
    TEST_CLUSTER: description,
    // The tests' workers join the cluster's own version (its worker made it current in `payflows`):
    // the same source, so the same build; a second first version there would be an operator's.
    TEST_WORKER_BUILD_ID: product.workerEnv.WORKER_BUILD_ID!,
    // Screenshots of a failed browser step; kept with the logs when a test fails.
    TEST_OUTPUT_DIR: join(dir, 'output'),
  };
  const { aloneFirst, apart, beside, aloneLast } = clusterPhases(files);
  const codes: number[] = [];
  const first: Array<Promise<number>> = [];
  if (aloneFirst.length) {
    say(`first, one at a time: ${aloneFirst.join(', ')}`);
    first.push(runTests(aloneFirst, env, { concurrency: 1 }));
  }
  if (apart.length) {
    say(`beside them, apart from the cluster: ${apart.join(', ')}`);
    first.push(runLanes(apart, env, { concurrency: 1, figures: SECONDS_ON_THE_CLUSTER, say }));
  }
  codes.push(...(await Promise.all(first)));
  if (beside.length && !signal.aborted)
    codes.push(await runLanes(beside, env, { concurrency: testConcurrency(), figures: SECONDS_ON_THE_CLUSTER, say }));
  if (aloneLast.length && !signal.aborted) {
    say(`last, one at a time: ${aloneLast.join(', ')}`);
    codes.push(await runTests(aloneLast, env, { concurrency: 1 }));
  }
  code = codes.find((c) => c !== 0) ?? (signal.aborted ? 1 : 0);
} catch (err) {
  console.error(`[test:cluster] could not run the tests: ${(err as Error).stack ?? err}`);
} finally {
  await cluster?.stop();
  if (code === 0) rmSync(dir, { recursive: true, force: true });
  else say(`logs kept in ${join(dir, 'logs')}, test output in ${join(dir, 'output')}`);
}
say(`done in ${Math.round((Date.now() - started) / 1000)} s`);
process.exit(code);
