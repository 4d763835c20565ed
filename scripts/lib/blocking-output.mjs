// Preloaded into each test file's process (testRunnerCommand): its stdout and stderr write
// through before returning. The test runner hands each file's verdicts to the run over a pipe,
// which Node writes asynchronously, and --test-force-exit ends the process once its tests are
// done: what was still queued was lost, and a run counted fewer tests than ran, and passed
// (nodejs/node#64833). Plain JavaScript for the same reason as default-test-timeout.mjs.

import { isMainThread } from 'node:worker_threads';

if (isMainThread) {
  for (const stream of [process.stdout, process.stderr]) {
    // Only pipes and files have it; a terminal already writes synchronously.
    /** @type {{ _handle?: { setBlocking?: (blocking: boolean) => void } }} */ (stream)._handle?.setBlocking?.(true);
  }
}
