import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
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
