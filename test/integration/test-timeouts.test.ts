import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { oneProcessCommand, testRunnerCommand } from '../../scripts/lib/test-timeouts.js';

// The timeouts `npm test` (a process per file) and `npm run test:unit` (one process for every
// file) run under (scripts/lib/test-timeouts.ts), on files that hang: each fails within its
// timeout, by name, and the run goes on.

type Command = typeof testRunnerCommand;

async function runFixture(files: string[], timeouts: { testMs: number; fileMs: number }, command: Command) {
  const { args, env } = command(
    files.map((file) => `test/fixtures/timeouts/${file}`),
    timeouts,
  );
  // Inside a test file's process NODE_TEST_CONTEXT is set, and node --test would run nothing.
  const { NODE_TEST_CONTEXT: _, ...parentEnv } = process.env;
  const started = Date.now();
  const child = spawn(process.execPath, args, { env: { ...parentEnv, ...env } });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, out, seconds: (Date.now() - started) / 1000 };
}

for (const [runner, command] of [
  ['a process per file (npm test)', testRunnerCommand],
  ['one process (npm run test:unit)', oneProcessCommand],
] as const) {
  describe(`test timeouts, ${runner}`, () => {
    it('a hung test fails by its name within the default timeout; a test with its own keeps it; the file goes on and ends', async () => {
      const run = await runFixture(['hung-test.ts'], { testMs: 500, fileMs: 60_000 }, command);
      assert.notEqual(run.code, 0, run.out);
      assert.match(run.out, /✖ hangs, holding a timer \([\d.]+ms\)\s+'test timed out after 500ms'/);
      assert.match(run.out, /✔ takes longer than the default, with a timeout of its own/);
      assert.match(run.out, /✔ runs after the hang/);
      assert.ok(run.seconds < 30, `the run ended in ${run.seconds} s, its timer notwithstanding`);
    });

    it('a file that hangs outside any test (a before hook) fails by its path within the file timeout', async () => {
      const run = await runFixture(['hung-hook.ts'], { testMs: 60_000, fileMs: 1_500 }, command);
      assert.notEqual(run.code, 0, run.out);
      assert.match(
        run.out,
        /✖ [^\n]*test\/fixtures\/timeouts\/hung-hook\.ts \([\d.]+ms\)\s+'test timed out after 1500ms'/,
      );
      assert.ok(run.seconds < 30, `the run ended in ${run.seconds} s`);
    });
  });
}

it('in one process, the file after one whose set-up hangs still runs', async () => {
  // (Under --test each file's own process start counts against so short a file timeout.)
  const run = await runFixture(['hung-hook.ts', 'passes.ts'], { testMs: 60_000, fileMs: 1_500 }, oneProcessCommand);
  assert.notEqual(run.code, 0, run.out);
  assert.match(run.out, /✖ [^\n]*hung-hook\.ts \([\d.]+ms\)\s+'test timed out after 1500ms'/);
  assert.match(run.out, /✔ runs in the file after the hung one/);
});
