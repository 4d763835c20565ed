import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { ALONE_ON_THE_CLUSTER, NEVER_REACH_TEMPORAL } from '../../scripts/lib/cluster-suite-files.js';

// The cluster suite skips the files that never reach a Temporal server, since `npm test` runs
// them: a file that starts to reach one must leave the list, or it is never tried on the cluster.

/** What a test file that reaches a server calls: the stacks, a connection, a worker, the cluster. */
const REACHES_TEMPORAL =
  /startStack\(|clusterDescription\(|connectClient\(|connectTemporal\(|Connection\.connect\(|TestWorkflowEnvironment|TEST_CLUSTER|createWorker\(|TEMPORAL_ADDRESS/;

describe('the cluster suite’s file lists', () => {
  it('leaves out only files that exist and reach no Temporal server', () => {
    for (const file of NEVER_REACH_TEMPORAL) {
      assert.ok(existsSync(file), `${file} exists`);
      assert.doesNotMatch(
        readFileSync(file, 'utf8'),
        REACHES_TEMPORAL,
        `${file} reaches a server: take it off the list`,
      );
    }
  });

  it('the marker finds a file that reaches a server', () => {
    assert.match(readFileSync('test/integration/wallet.test.ts', 'utf8'), REACHES_TEMPORAL);
    assert.match(readFileSync('test/cluster/server-config.test.ts', 'utf8'), REACHES_TEMPORAL);
  });

  it('runs alone only cluster files that exist', () => {
    for (const file of ALONE_ON_THE_CLUSTER) assert.ok(existsSync(file) && file.startsWith('test/cluster/'), file);
  });
});
