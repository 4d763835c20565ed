import type { TestEvent } from 'node:test/reporters';

// The verdict of one process of test files (unit-in-one-process.ts: `npm run test:unit`, a lane's
// shared process) from node's test runner itself, not from process.exitCode: every file shares the
// process, so one that resets the exit code (in an after hook) or exits (code under test calling
// process.exit(0)) would otherwise end the run green over another file's failure. This module is both the reporter that counts the failures
// (oneProcessCommand passes it with --test-reporter) and the tally the entry reads on 'exit'.

export const tally = {
  /** Tests, and suites failing on their own (a hook, a timeout), that failed; not a todo. */
  failed: 0,
};

/** A reporter that writes nothing: it counts what failed, into `tally`. */
export default async function* countFailures(source: AsyncIterable<TestEvent>): AsyncGenerator<string> {
  for await (const event of source) {
    if (event.type !== 'test:fail' || event.data.todo !== undefined) continue;
    // A suite fails because of its tests too: those are counted already.
    const cause = (event.data.details.error as { failureType?: string }).failureType;
    if (event.data.details.type !== 'suite' || cause !== 'subtestsFailed') tally.failed++;
  }
  yield* [];
}
