import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { ALONE_ON_THE_CLUSTER, NEVER_REACH_TEMPORAL } from '../../scripts/lib/cluster-suite-files.js';
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

  it('runs alone only cluster files that exist', () => {
    for (const file of ALONE_ON_THE_CLUSTER) assert.ok(existsSync(file) && file.startsWith('test/cluster/'), file);
  });
});
