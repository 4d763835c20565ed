// How long a test may take before it fails, for `npm test` and `npm run test:cluster` alike. A
// hang then fails within minutes, naming the test, instead of stalling CI until its limit.

/**
 * Each test without a `{ timeout }` of its own. The slowest ones set theirs (failure-privacy
 * 120 s, idempotency 240 s, the cluster script 5 and 10 min); of the rest the slowest, replaying
 * every recorded history, took 57 s in a full run on the shared 2-core machine, so 5 minutes is a hang.
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

/** node's arguments to run the files, and the environment that carries the per-test timeout. */
export function testRunnerCommand(
  files: string[],
  timeouts: { testMs?: number; fileMs?: number } = {},
): { args: string[]; env: Record<string, string> } {
  return {
    args: [
      '--import',
      'tsx',
      '--import',
      defaultTimeoutModule,
      '--test',
      `--test-timeout=${timeouts.fileMs ?? FILE_TIMEOUT_MS}`,
      // Once a file's tests and hooks are done, its process ends even if a test that timed out
      // left a socket or a timer behind.
      '--test-force-exit',
      '--test-reporter=spec',
      ...files,
    ],
    env: { PAYFLOWS_TEST_TIMEOUT_MS: String(timeouts.testMs ?? TEST_TIMEOUT_MS) },
  };
}
