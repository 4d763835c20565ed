import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clusterPhases, clusterSuiteFiles } from '../../scripts/lib/cluster-suite-files.js';
import {
  expectedSeconds,
  OTHER_FILE_SECONDS,
  SECONDS_ON_THE_CLUSTER,
  SECONDS_ON_THE_DEV_SERVER,
} from '../../scripts/lib/test-order.js';
import { testFiles } from '../../scripts/lib/test-run.js';

describe('the seconds a suite expects of each file', () => {
  it('finds a file by its path from the repository’s root, and takes an unnamed one to last OTHER_FILE_SECONDS', () => {
    const figures = { 'test/integration/replay.test.ts': 87 };
    assert.equal(expectedSeconds('test/integration/replay.test.ts', figures), 87);
    assert.equal(expectedSeconds('/repo/test/integration/replay.test.ts', figures), 87);
    // Another file that only ends like a named one is not it.
    assert.equal(expectedSeconds('test/integration/my-replay.test.ts', figures), OTHER_FILE_SECONDS);
    assert.equal(expectedSeconds('test/integration/new.test.ts', {}), OTHER_FILE_SECONDS);
  });

  it('names, for each suite, exactly the files it runs in its lanes', () => {
    // A figure for a file the suite does not run in lanes is stale; a file without one is scheduled blind.
    const npmTest = testFiles('test/integration');
    const { apart, beside } = clusterPhases(
      clusterSuiteFiles(testFiles('test/integration'), testFiles('test/cluster')),
    );
    for (const [suite, figures, files] of [
      ['npm test', SECONDS_ON_THE_DEV_SERVER, npmTest],
      ['npm run test:cluster', SECONDS_ON_THE_CLUSTER, [...apart, ...beside]],
    ] as const) {
      assert.deepEqual(Object.keys(figures).sort(), [...files].sort(), suite);
      for (const [file, seconds] of Object.entries(figures))
        assert.ok(Number.isInteger(seconds) && seconds > 0, `${suite}: ${file}: ${seconds}`);
    }
  });
});
