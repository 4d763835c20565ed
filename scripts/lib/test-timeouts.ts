import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';

// How long a test may take before it fails, for `npm test`, `npm run test:cluster` and
// `npm run test:unit` alike. A hang then fails within minutes, naming the test, instead of
// stalling CI until its limit.

/**
 * Each test without a `{ timeout }` of its own (the slowest tests set theirs): well above the
 * slowest of the rest, replaying every recorded history, so that reaching it means a hang.
 */
export const TEST_TIMEOUT_MS = 5 * 60_000;

/**
 * Each file as a whole (node's --test-timeout): the backstop for what no test's timeout sees, a
 * before/after hook that hangs (claims-s3's first build of versitygw is a legitimate few minutes)
 * or a file whose tests are done but whose process would not end. Above the longest file,
 * test/cluster/cluster-script.test.ts with its 10 and 5 minute tests.
 */
export const FILE_TIMEOUT_MS = 20 * 60_000;

const defaultTimeoutModule = new URL('./default-test-timeout.mjs', import.meta.url).href;
const blockingOutputModule = new URL('./blocking-output.mjs', import.meta.url).href;
const besideThis = (name: string) =>
  fileURLToPath(new URL(`./${name}${extname(fileURLToPath(import.meta.url))}`, import.meta.url));
const oneProcessEntry = besideThis('unit-in-one-process');
const unitVerdictReporter = besideThis('unit-verdict');

type Timeouts = { testMs?: number; fileMs?: number };
type Command = { args: string[]; env: Record<string, string> };

/**
 * What both ways of running start node with: tsx, each test's default timeout, the reporter that
 * lists each test on stdout (and any other reporter, writing to stderr).
 */
function nodeWithTimeouts(
  args: string[],
  timeouts: Timeouts,
  env: Record<string, string> = {},
  reporters: string[] = [],
): Command {
  return {
    args: [
      '--import',
      'tsx',
      '--import',
      defaultTimeoutModule,
      '--import',
      blockingOutputModule,
      // Once the tests and hooks are done, the process ends even if a test that timed out left a
      // socket or a timer behind.
      '--test-force-exit',
      '--test-reporter=spec',
      ...(reporters.length ? ['--test-reporter-destination=stdout'] : []),
      ...reporters.flatMap((reporter) => [`--test-reporter=${reporter}`, '--test-reporter-destination=stderr']),
      ...args,
    ],
    env: { PAYFLOWS_TEST_TIMEOUT_MS: String(timeouts.testMs ?? TEST_TIMEOUT_MS), ...env },
  };
}

/**
 * node's arguments to run the files, a process each (`concurrency` of them at once, else node's
 * default: one less than the cores), and the environment that carries the per-test timeout.
 */
export function testRunnerCommand(
  files: string[],
  timeouts: Timeouts = {},
  run: { concurrency?: number } = {},
): Command {
  return nodeWithTimeouts(
    [
      '--test',
      `--test-timeout=${timeouts.fileMs ?? FILE_TIMEOUT_MS}`,
      ...(run.concurrency === undefined ? [] : [`--test-concurrency=${run.concurrency}`]),
      ...files,
    ],
    timeouts,
  );
}

/**
 * node's arguments to run the files in one process (unit-in-one-process.ts, for the unit tests):
 * the same default timeout for each test, each file's timeout on the suite that holds it, and the
 * reporter that counts failures whatever a file does to process.exitCode (unit-verdict.ts).
 */
export function oneProcessCommand(files: string[], timeouts: Timeouts = {}): Command {
  return nodeWithTimeouts(
    [oneProcessEntry, ...files],
    timeouts,
    { PAYFLOWS_TEST_FILE_TIMEOUT_MS: String(timeouts.fileMs ?? FILE_TIMEOUT_MS) },
    // The run's verdict, counted from the runner and not from process.exitCode (unit-verdict.ts).
    [unitVerdictReporter],
  );
}
