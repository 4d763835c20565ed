import { writeSync } from 'node:fs';
import { resolve } from 'node:path';
import { after, describe } from 'node:test';
import { pathToFileURL } from 'node:url';
import { tally } from './unit-verdict.js';

// The entry `npm run test:unit` runs (oneProcessCommand in test-timeouts.ts), and each shared
// process of the suites' lanes (test-lanes.ts): every file given in this one process, each imported
// inside a suite named for its path, so that node's test runner collects them all and a failure is
// reported under its file and test name. One node and tsx start instead of one per file is what
// makes the fast loop fast (node 20 has no --experimental-test-isolation). The files share the process: a test that changes process.env, a
// global or the cwd puts it back. The suite's timeout is the file's: a hook that hangs fails it by
// its path, and the next file runs.

const fileMs = Number(process.env.PAYFLOWS_TEST_FILE_TIMEOUT_MS) || Infinity;
const files = process.argv.slice(2);
const finished = new Set<string>();

// Whatever a file did to process.exitCode, or however the process came to exit: a failure the
// runner counted (unit-verdict.ts), or a file whose suite never got to its end, fails the run.
process.on('exit', (code) => {
  const unfinished = files.filter((file) => !finished.has(file));
  if (tally.failed === 0 && unfinished.length === 0) return;
  if (code === 0) {
    const why = [
      tally.failed > 0 && `${tally.failed} test${tally.failed === 1 ? '' : 's'} failed, though process.exitCode was 0`,
      unfinished.length > 0 &&
        `these files did not finish (did code under test call process.exit?): ${unfinished.join(', ')}`,
    ].filter(Boolean);
    writeSync(2, `\nthese tests fail: ${why.join('; ')}\n`);
  }
  process.exitCode = 1;
});

for (const file of files) {
  describe(file, { timeout: fileMs }, async () => {
    await import(pathToFileURL(resolve(file)).href);
    // Registered after the file's own tests and hooks: it runs once they are all done.
    after(() => void finished.add(file));
  });
}
