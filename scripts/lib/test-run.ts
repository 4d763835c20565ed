import { spawn } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { workflowInterceptorModules } from '../../worker/create-worker.js';
import { planLanes } from './test-lanes.js';
import { expectedSeconds } from './test-order.js';
import { oneProcessCommand, testRunnerCommand } from './test-timeouts.js';
import { bundleWorkflows } from './workflow-bundle.js';

// What `npm test` and `npm run test:cluster` share: one workflow bundle for the run, and node's
// test runner over the test files with the run's environment.

/**
 * The ports each suite's freePort hands out (TEST_PORT_RANGE, src/temporal/ports.ts), apart from each
 * other, from the cluster's membership ports (20000 to 32000, scripts/lib/temporal-cluster.ts) and
 * from Linux's ephemeral ports (32768 to 60999 by default), so that the suites run side by side.
 * A range set in the environment is kept.
 */
export const SUITE_PORT_RANGES = { test: '10000-19999', cluster: '61000-65535' } as const;

export function useSuitePorts(suite: keyof typeof SUITE_PORT_RANGES): void {
  process.env.TEST_PORT_RANGE ||= SUITE_PORT_RANGES[suite];
}

export function testFiles(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.test.ts'))
    .sort()
    .map((f) => join(dir, f));
}

export async function buildTestBundle(dir: string): Promise<string> {
  const path = join(dir, 'workflow-bundle.js');
  writeFileSync(path, await bundleWorkflows(workflowInterceptorModules));
  return path;
}

/**
 * Test files a suite runs at once. Most of a file's time is spent waiting on Temporal, a worker, a
 * browser or a timer, so two files share a core well; node's default on 2 cores is one.
 */
export const TEST_CONCURRENCY = 2;

/** TEST_CONCURRENCY from the environment (1 runs the files one at a time), else the default. */
export function testConcurrency(env: NodeJS.ProcessEnv = process.env): number {
  const given = env.TEST_CONCURRENCY;
  if (given === undefined || given === '') return TEST_CONCURRENCY;
  if (!/^[1-9][0-9]*$/.test(given))
    throw new Error(
      `TEST_CONCURRENCY must be a whole number of test files run at once, 1 or more; got ${JSON.stringify(given)}`,
    );
  return Number(given);
}

/**
 * The files split in two: those that may run beside others, in their order, then those that must
 * run alone (they take shared servers down or change what every test's runs meet), in theirs.
 */
export function besideAndAlone(files: string[], alone: readonly string[]): { beside: string[]; alone: string[] } {
  const isAlone = (f: string) => alone.some((a) => f === a || f.endsWith(`/${a}`));
  return { beside: files.filter((f) => !isAlone(f)), alone: files.filter(isAlone) };
}

/**
 * Runs the files with node's test runner, `concurrency` at once, each test and each file under its
 * timeout (test-timeouts.ts); resolves with its exit code. SIGINT/SIGTERM are passed on.
 */
export function runTests(
  files: string[],
  env: Record<string, string>,
  run: { concurrency: number } = { concurrency: testConcurrency() },
): Promise<number> {
  return runNode(testRunnerCommand(files, {}, run), env);
}

/**
 * Runs the files in `run.concurrency` lanes (test-lanes.ts): a lane's processes one after another,
 * most of its files in one process. Each process's output is printed whole when it ends, so that
 * the lanes' lines do not interleave. Resolves with the first failing exit code, else 0; after
 * SIGINT or SIGTERM (passed on to the processes running) no lane starts another process.
 */
export async function runLanes(
  files: string[],
  env: Record<string, string>,
  run: {
    concurrency: number;
    /** The suite's files' expected seconds (test-order.ts), by which planLanes splits them. */
    figures: Readonly<Record<string, number>>;
    say: (line: string) => void;
    /** Where each process's output goes (standard output unless given). */
    print?: (output: string) => void;
  },
): Promise<number> {
  const print = run.print ?? ((output: string) => void process.stdout.write(output));
  const lanes = planLanes(files, run.concurrency, { seconds: (file) => expectedSeconds(file, run.figures) });
  let stopped = false;
  const stop = () => void (stopped = true);
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    const codes = await Promise.all(
      lanes.map(async (lane, i) => {
        let laneCode = 0;
        for (const { files: processFiles, own } of lane) {
          if (stopped) return laneCode || 1;
          const what = `lane ${i + 1}: ${processFiles.join(', ')}`;
          run.say(`${what}: started${own ? '' : ' (in one process)'}`);
          const command = own ? testRunnerCommand(processFiles) : oneProcessCommand(processFiles);
          const { code, output } = await runNodeCollected(command, env);
          print(output);
          run.say(`${what}: exit ${code}`);
          laneCode ||= code;
        }
        return laneCode;
      }),
    );
    return codes.find((c) => c !== 0) ?? 0;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

/** Runs node with the command's arguments and environment over the run's; resolves with its exit code. */
export async function runNode(
  command: { args: string[]; env: Record<string, string> },
  env: Record<string, string>,
): Promise<number> {
  return (await spawnNode(command, env, { output: 'inherit' })).code;
}

/** runNode, with the process's stdout and stderr collected in the order they came, not passed on. */
function runNodeCollected(
  command: { args: string[]; env: Record<string, string> },
  env: Record<string, string>,
): Promise<{ code: number; output: string }> {
  return spawnNode(command, env, { output: 'collect' });
}

/** Node under the run's environment, SIGINT and SIGTERM passed on while it runs; its output inherited or collected. */
function spawnNode(
  command: { args: string[]; env: Record<string, string> },
  env: Record<string, string>,
  opts: { output: 'inherit' | 'collect' },
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, command.args, {
      stdio: opts.output === 'inherit' ? 'inherit' : ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...command.env, ...env },
    });
    const chunks: Buffer[] = [];
    child.stdout?.on('data', (d: Buffer) => chunks.push(d));
    child.stderr?.on('data', (d: Buffer) => chunks.push(d));
    const forward = (sig: NodeJS.Signals) => child.kill(sig);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('close', (c, sig) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve({ code: c ?? (sig ? 1 : 0), output: Buffer.concat(chunks).toString() });
    });
  });
}
