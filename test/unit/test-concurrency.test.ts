import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { besideAndAlone, TEST_CONCURRENCY, testConcurrency } from '../../scripts/lib/test-run.js';
import { testRunnerCommand } from '../../scripts/lib/test-timeouts.js';

// How many test files a suite runs at once, and which files the cluster suite runs alone after the
// others (scripts/test-cluster.ts): a file that kills a server process must never overlap another.

describe('test files at once', () => {
  it('runs TEST_CONCURRENCY files at once, the default when unset, and refuses anything but a whole number from 1', () => {
    assert.equal(testConcurrency({}), TEST_CONCURRENCY);
    assert.equal(testConcurrency({ TEST_CONCURRENCY: '' }), TEST_CONCURRENCY);
    assert.equal(testConcurrency({ TEST_CONCURRENCY: '1' }), 1);
    assert.equal(testConcurrency({ TEST_CONCURRENCY: '3' }), 3);
    for (const bad of ['0', '-1', '1.5', 'two', ' 2'])
      assert.throws(
        () => testConcurrency({ TEST_CONCURRENCY: bad }),
        /TEST_CONCURRENCY must be a whole number of test files run at once, 1 or more/,
        bad,
      );
  });

  it('hands node the concurrency it was given, and leaves node its default when none is', () => {
    assert.ok(testRunnerCommand(['a.test.ts'], {}, { concurrency: 2 }).args.includes('--test-concurrency=2'));
    assert.equal(
      testRunnerCommand(['a.test.ts']).args.some((a) => a.startsWith('--test-concurrency')),
      false,
    );
  });

  it('splits the files into those run beside others and those run alone, each in the order given', () => {
    const alone = ['test/cluster/temporal-faults.test.ts', 'test/cluster/scale-out.test.ts'];
    const files = [
      'test/integration/wallet.test.ts',
      'test/cluster/scale-out.test.ts',
      'test/cluster/browser.test.ts',
      'test/cluster/temporal-faults.test.ts',
    ];
    assert.deepEqual(besideAndAlone(files, alone), {
      beside: ['test/integration/wallet.test.ts', 'test/cluster/browser.test.ts'],
      alone: ['test/cluster/scale-out.test.ts', 'test/cluster/temporal-faults.test.ts'],
    });
    // Given by an absolute path, as a shell may give them, a file is still found alone.
    assert.deepEqual(besideAndAlone(['/work/x/test/cluster/scale-out.test.ts'], alone).alone, [
      '/work/x/test/cluster/scale-out.test.ts',
    ]);
    // A file named like one but elsewhere is not.
    assert.deepEqual(besideAndAlone(['test/cluster/other-scale-out.test.ts'], alone).alone, []);
  });
});
