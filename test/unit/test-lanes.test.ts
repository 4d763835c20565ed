import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { OWN_PROCESS, planLanes } from '../../scripts/lib/test-lanes.js';
import { testFiles } from '../../scripts/lib/test-run.js';

const SECONDS: Record<string, number> = { 'a.ts': 100, 'b.ts': 60, 'c.ts': 50, 'd.ts': 40, 'e.ts': 10 };
const seconds = (file: string) => SECONDS[file] ?? 30;

describe('the lanes a suite runs its files in', () => {
  it('gives each file, longest first, to the lane with the least expected time, so that the lanes end together', () => {
    const lanes = planLanes(['e.ts', 'd.ts', 'c.ts', 'b.ts', 'a.ts'], 2, { ownProcess: [], seconds });
    // a (100) to the first; b (60) to the second; c (50) to the second (110); d (40) to the first
    // (140); e (10) to the second (120).
    assert.deepEqual(lanes, [
      [{ files: ['a.ts', 'd.ts'], own: false }],
      [{ files: ['b.ts', 'c.ts', 'e.ts'], own: false }],
    ]);
  });

  it('runs a file OWN_PROCESS names in a process of its own, before the lane’s others, which share one', () => {
    const lanes = planLanes(['test/integration/x.test.ts', 'a.ts', 'b.ts', 'c.ts'], 1, {
      ownProcess: ['test/integration/x.test.ts'],
      seconds,
    });
    assert.deepEqual(lanes, [
      [
        { files: ['test/integration/x.test.ts'], own: true },
        { files: ['a.ts', 'b.ts', 'c.ts'], own: false },
      ],
    ]);
  });

  it('puts every file in exactly one process, and leaves no lane empty', () => {
    const files = testFiles('test/integration');
    const lanes = planLanes(files, 4);
    const planned = lanes.flat().flatMap((p) => p.files);
    assert.deepEqual([...planned].sort(), [...files].sort());
    assert.equal(lanes.length, 4);
    assert.deepEqual(planLanes(['a.ts'], 3, { ownProcess: [], seconds }), [[{ files: ['a.ts'], own: false }]]);
  });

  it('refuses a number of lanes that is not a whole number of 1 or more, saying what it got', () => {
    for (const count of [0, -1, 1.5]) assert.throws(() => planLanes(['a.ts'], count), /1 lane or more; got/);
  });
});

describe('OWN_PROCESS', () => {
  it('names every test file that installs the Temporal Runtime or registers a tracer provider, and only files that exist', () => {
    const files = [...testFiles('test/integration'), ...testFiles('test/cluster')];
    // Runtime.install, startStack's `runtime` (which it installs), startTracing (which registers a
    // global tracer provider): what a file after it in the same process would inherit.
    const changesTheProcess = files.filter((f) =>
      /Runtime\.install\(|startStack\(\{[^)]*\bruntime\b|startTracing\(/s.test(readFileSync(f, 'utf8')),
    );
    assert.ok(changesTheProcess.length >= 5, `found ${changesTheProcess.length}: the search still finds them`);
    const missing = changesTheProcess.filter((f) => !OWN_PROCESS.includes(f));
    assert.deepEqual(missing, [], `put these on OWN_PROCESS (scripts/lib/test-lanes.ts): ${missing.join(', ')}`);
    for (const file of OWN_PROCESS) assert.ok(existsSync(file), `${file} exists: take it off OWN_PROCESS`);
  });
});
