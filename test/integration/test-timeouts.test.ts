import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { oneProcessCommand, testRunnerCommand } from '../../scripts/lib/test-timeouts.js';
import { runLanes } from '../../scripts/lib/test-run.js';

// The timeouts `npm test` (a process per file) and `npm run test:unit` (one process for every
// file) run under (scripts/lib/test-timeouts.ts), on files that hang: each fails within its
// timeout, by name, and the run goes on. And in one process, no file can hide another's failures;
// nor in the suites' lanes (runLanes, scripts/lib/test-run.ts), whose processes are of that kind.

type Command = typeof testRunnerCommand;

async function runFixture(files: string[], timeouts: { testMs: number; fileMs: number }, command: Command) {
  const { args, env } = command(
    files.map((file) => (file.startsWith('/') ? file : `test/fixtures/${file}`)),
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
      const run = await runFixture(['timeouts/hung-test.ts'], { testMs: 500, fileMs: 60_000 }, command);
      assert.notEqual(run.code, 0, run.out);
      assert.match(run.out, /✖ hangs, holding a timer \([\d.]+ms\)\s+'test timed out after 500ms'/);
      assert.match(run.out, /✔ takes longer than the default, with a timeout of its own/);
      assert.match(run.out, /✔ runs after the hang/);
      assert.ok(run.seconds < 30, `the run ended in ${run.seconds} s, its timer notwithstanding`);
    });

    it('a file that hangs outside any test (a before hook) fails by its path within the file timeout', async () => {
      const run = await runFixture(['timeouts/hung-hook.ts'], { testMs: 60_000, fileMs: 1_500 }, command);
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
  const run = await runFixture(
    ['timeouts/hung-hook.ts', 'timeouts/passes.ts'],
    { testMs: 60_000, fileMs: 1_500 },
    oneProcessCommand,
  );
  assert.notEqual(run.code, 0, run.out);
  assert.match(run.out, /✖ [^\n]*hung-hook\.ts \([\d.]+ms\)\s+'test timed out after 1500ms'/);
  assert.match(run.out, /✔ runs in the file after the hung one/);
});

describe('in one process, no file ends the run green over a failure', () => {
  const unitRunner = (files: string[]) =>
    runFixture(
      files.map((file) => `unit-runner/${file}`),
      { testMs: 60_000, fileMs: 60_000 },
      oneProcessCommand,
    );

  it('a failure stays one after a later file sets process.exitCode = 0', async () => {
    const run = await unitRunner(['fails.ts', 'resets-exit-code.ts']);
    assert.equal(run.code, 1, run.out);
    assert.match(run.out, /✖ fails/);
    assert.match(run.out, /✔ passes, then resets the exit code/);
    assert.match(run.out, /1 test failed, though process\.exitCode was 0/);
  });

  it('a failure stays one after a later file calls process.exit(0)', async () => {
    const run = await unitRunner(['fails.ts', 'exits.ts']);
    assert.equal(run.code, 1, run.out);
    // The reporters' output may be lost with the process; the reason is written as it exits.
    assert.match(run.out, /did not finish[^\n]*unit-runner\/exits\.ts/);
  });

  it('a process.exit(0) before every file is done fails the run, naming the files that did not finish', async () => {
    const run = await unitRunner(['exits.ts', '../timeouts/passes.ts']);
    assert.equal(run.code, 1, run.out);
    assert.match(run.out, /did not finish[^\n]*unit-runner\/exits\.ts[^\n]*timeouts\/passes\.ts/);
  });

  it('files that pass end the run green, process.exitCode = 0 or not', async () => {
    const run = await unitRunner(['../timeouts/passes.ts', 'resets-exit-code.ts']);
    assert.equal(run.code, 0, run.out);
  });
});

describe('test verdicts, a process per file (npm test)', () => {
  it('every test a file runs is counted, however fast its process ends', async () => {
    // Node's --test-force-exit ends a file's process as soon as its tests are done, and its
    // verdicts still in the pipe to the runner were lost: a run counted fewer tests than ran, and
    // passed. Many files of many fast tests with long names fill that pipe; three runs catch it.
    const dir = mkdtempSync(join(tmpdir(), 'payflows-verdicts-'));
    try {
      const files = ['a', 'b', 'c', 'd'].map((name) => {
        const file = join(dir, `${name}.test.mjs`);
        writeFileSync(
          file,
          `import { test } from 'node:test';\nfor (let i = 1; i <= 200; i++) test(\`${name}\${i} \${'x'.repeat(2000)}\`, () => {});\n`,
        );
        return file;
      });
      for (let run = 1; run <= 3; run++) {
        const { code, out } = await runFixture(files, { testMs: 60_000, fileMs: 60_000 }, testRunnerCommand);
        const counted = out.match(/ℹ tests (\d+)\n/)?.[1];
        assert.equal(code, 0, `run ${run} failed: ${out.slice(-2000)}`);
        assert.ok(counted === '800', `run ${run} counted ${counted} of the 800 tests that ran`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('lanes (npm test, npm run test:cluster)', () => {
  /** runLanes over fixtures, its processes' output and its lines collected. */
  async function lanes(files: string[], concurrency: number) {
    const outputs: string[] = [];
    const said: string[] = [];
    // Inside a test file's process NODE_TEST_CONTEXT is set, and the lanes' processes would report
    // to a runner that is not there.
    const context = process.env.NODE_TEST_CONTEXT;
    delete process.env.NODE_TEST_CONTEXT;
    try {
      const code = await runLanes(
        files.map((file) => `test/fixtures/${file}`),
        {},
        { concurrency, figures: {}, say: (line) => said.push(line), print: (output) => outputs.push(output) },
      );
      return { code, outputs, said };
    } finally {
      if (context !== undefined) process.env.NODE_TEST_CONTEXT = context;
    }
  }

  it('a failing file fails the run, and the file after it in the same process still runs', async () => {
    const run = await lanes(['unit-runner/fails.ts', 'timeouts/passes.ts'], 1);
    assert.equal(run.code, 1, run.outputs.join('\n'));
    assert.equal(run.outputs.length, 1, 'both files ran in one process');
    assert.match(run.outputs[0]!, /✖ fails/);
    assert.match(run.outputs[0]!, /✔ runs in the file after the hung one/);
    assert.match(
      run.said.at(-1)!,
      /^lane 1: test\/fixtures\/unit-runner\/fails\.ts, test\/fixtures\/timeouts\/passes\.ts: exit 1$/,
    );
  });

  it('a failure in one lane fails the run, the other lane runs to its end, and each process’s output comes whole', async () => {
    const run = await lanes(['unit-runner/fails.ts', 'timeouts/passes.ts'], 2);
    assert.equal(run.code, 1, run.outputs.join('\n'));
    assert.equal(run.outputs.length, 2, 'a process for each lane');
    const failing = run.outputs.filter((o) => /✖ fails/.test(o));
    const passing = run.outputs.filter((o) => /✔ runs in the file after/.test(o));
    assert.equal(failing.length, 1, 'one output holds the failure');
    assert.equal(passing.length, 1, 'one output holds the passing file');
    assert.notEqual(failing[0], passing[0]);
  });

  it('files that pass end the run with 0', async () => {
    const run = await lanes(['timeouts/passes.ts'], 2);
    assert.equal(run.code, 0, run.outputs.join('\n'));
    assert.equal(run.said.length, 2, `one lane, started and ended: ${run.said.join('; ')}`);
  });
});
