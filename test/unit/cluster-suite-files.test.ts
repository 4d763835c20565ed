import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import {
  ALONE_ON_THE_CLUSTER,
  APART_FROM_THE_CLUSTER,
  clusterPhases,
  clusterSuiteFiles,
  LAST_ON_THE_CLUSTER,
  NEVER_REACH_TEMPORAL,
  SAME_ON_EITHER_SERVER,
} from '../../scripts/lib/cluster-suite-files.js';
import { testFiles } from '../../scripts/lib/test-run.js';
import { serverNeeds } from '../helpers/server-needs.js';

// The cluster suite skips the files that never reach a Temporal server, since `npm test` runs
// them: a file that starts to reach one must leave the list, or it is never tried on the cluster.

/** A server is reached through a stack, a worker process, the cluster's description or a connection. */
const reaches = (file: string) => serverNeeds(readFileSync(file, 'utf8'), ['stack', 'temporal']);

describe('the cluster suite’s file lists', () => {
  it('leaves out only files that exist and reach no Temporal server', () => {
    for (const file of NEVER_REACH_TEMPORAL) {
      assert.ok(existsSync(file), `${file} exists`);
      assert.deepEqual(reaches(file), [], `${file} reaches a server: take it off the list`);
    }
  });

  it('finds the files that reach a server', () => {
    assert.notDeepEqual(reaches('test/integration/wallet.test.ts'), []);
    assert.notDeepEqual(reaches('test/cluster/server-config.test.ts'), []);
  });

  // A file that looks at which cluster it runs on checks something of the server's: it must run there.
  it('leaves to `npm test` only integration files that exist and never ask which server they are on', () => {
    for (const file of SAME_ON_EITHER_SERVER) {
      assert.ok(existsSync(file) && file.startsWith('test/integration/'), `${file} is an integration file`);
      assert.ok(!NEVER_REACH_TEMPORAL.includes(file), `${file} is on one list only`);
      assert.doesNotMatch(
        readFileSync(file, 'utf8'),
        /helpers\/cluster\.js|TEST_CLUSTER/,
        `${file} reads the cluster's description`,
      );
    }
  });

  it('runs every cluster file and every integration file it does not leave to `npm test`', () => {
    const integration = testFiles('test/integration');
    const cluster = testFiles('test/cluster');
    const files = clusterSuiteFiles(integration, cluster);
    for (const file of cluster) assert.ok(files.includes(file), file);
    assert.ok(files.includes('test/integration/wallet.test.ts'));
    assert.ok(files.includes('test/integration/kyc.test.ts'));
    for (const file of [...NEVER_REACH_TEMPORAL, ...SAME_ON_EITHER_SERVER]) assert.ok(!files.includes(file), file);
    assert.equal(
      files.length,
      integration.length + cluster.length - NEVER_REACH_TEMPORAL.length - SAME_ON_EITHER_SERVER.length,
    );
  });

  it('runs the files alone first, then the others, then those that leave the cluster short', () => {
    const files = clusterSuiteFiles(testFiles('test/integration'), testFiles('test/cluster'));
    const { aloneFirst, apart, beside, aloneLast } = clusterPhases(files);
    assert.deepEqual(aloneLast, LAST_ON_THE_CLUSTER);
    assert.deepEqual(
      [...aloneFirst].sort(),
      ALONE_ON_THE_CLUSTER.filter((f) => !LAST_ON_THE_CLUSTER.includes(f)).sort(),
    );
    assert.deepEqual(apart, APART_FROM_THE_CLUSTER);
    assert.deepEqual([...aloneFirst, ...apart, ...beside, ...aloneLast].sort(), [...files].sort(), 'every file once');
    assert.ok(beside.includes('test/cluster/browser.test.ts'));
  });

  // Beside the files that kill the cluster's processes and restart its PostgreSQL, a file apart
  // from it must reach none of the suite's: no description of it, no stack, no worker, no address.
  it('runs apart from the cluster only files that use nothing of the suite’s', () => {
    const usesTheSuites = (file: string) => {
      const source = readFileSync(file, 'utf8');
      return (
        /clusterDescription|clusterClient|TEST_CLUSTER|helpers\/(stack|worker-process)\.js|TEMPORAL_ADDRESS/.test(
          source,
        ) || serverNeeds(source, ['bundle', 'temporal']).length > 0
      );
    };
    for (const file of APART_FROM_THE_CLUSTER) {
      assert.ok(existsSync(file) && file.startsWith('test/cluster/'), file);
      assert.ok(!usesTheSuites(file), `${file} uses the suite's cluster: take it off APART_FROM_THE_CLUSTER`);
      assert.ok(!ALONE_ON_THE_CLUSTER.includes(file), `${file} is on one list only`);
    }
    assert.ok(usesTheSuites('test/cluster/mtls.test.ts'), 'finds a file that uses the suite’s PostgreSQL');
  });

  it('runs alone only cluster files that exist', () => {
    for (const file of ALONE_ON_THE_CLUSTER) assert.ok(existsSync(file) && file.startsWith('test/cluster/'), file);
    for (const file of LAST_ON_THE_CLUSTER) assert.ok(ALONE_ON_THE_CLUSTER.includes(file), `${file} runs alone`);
  });

  // The drill turns the cluster sandbox's faults on for every route: a test beside it that calls
  // the provider itself (the Go backend's makes its user so) would get the drill's errors.
  it('runs alone every cluster file that runs the drill or sets the shared sandbox’s faults', () => {
    const files = readdirSync('test/cluster').map((name) => `test/cluster/${name}`);
    const faulting = files.filter((file) =>
      /scripts\/(lib\/)?drill|\/sandbox\/knobs\/faults/.test(readFileSync(file, 'utf8')),
    );
    assert.ok(faulting.includes('test/cluster/temporal-faults.test.ts'), 'finds the drill in the fault test');
    for (const file of faulting)
      assert.ok(ALONE_ON_THE_CLUSTER.includes(file), `${file} must run alone on the cluster`);
  });
});
