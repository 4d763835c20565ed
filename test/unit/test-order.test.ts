import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';
import { LONGEST_FIRST, longestFirst } from '../../scripts/lib/test-order.js';

describe('the order a suite starts its files in', () => {
  it('starts the named files first, in the list’s order, then the others in theirs, each once', () => {
    const files = ['a.test.ts', 'b.test.ts', 'c.test.ts', 'd.test.ts', 'e.test.ts'];
    assert.deepEqual(longestFirst(files, ['d.test.ts', 'b.test.ts']), [
      'd.test.ts',
      'b.test.ts',
      'a.test.ts',
      'c.test.ts',
      'e.test.ts',
    ]);
  });

  it('finds a named file by its path from the repository’s root, and skips names the suite does not run', () => {
    const files = ['/repo/test/integration/a.test.ts', '/repo/test/integration/replay.test.ts'];
    assert.deepEqual(longestFirst(files, ['test/cluster/x.test.ts', 'test/integration/replay.test.ts']), [
      '/repo/test/integration/replay.test.ts',
      '/repo/test/integration/a.test.ts',
    ]);
    // Another file that only ends like a named one is not it.
    assert.deepEqual(longestFirst(['test/integration/my-replay.test.ts', 'a.test.ts'], ['replay.test.ts']), [
      'test/integration/my-replay.test.ts',
      'a.test.ts',
    ]);
  });

  it('names only test files that exist, each once', () => {
    for (const file of LONGEST_FIRST) assert.ok(existsSync(file), `${file} exists: take it off LONGEST_FIRST`);
    assert.equal(new Set(LONGEST_FIRST).size, LONGEST_FIRST.length);
  });
});
