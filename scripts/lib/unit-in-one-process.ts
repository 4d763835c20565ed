import { resolve } from 'node:path';
import { describe } from 'node:test';
import { pathToFileURL } from 'node:url';

// The entry `npm run test:unit` runs (oneProcessCommand in test-timeouts.ts): every unit test file
// in this one process, each imported inside a suite named for its path, so that node's test runner
// collects them all and a failure is reported under its file and test name. One node and tsx start
// instead of one per file is what makes the fast loop fast (node 20 has no
// --experimental-test-isolation). The files share the process: a test that changes process.env, a
// global or the cwd puts it back. The suite's timeout is the file's: a hook that hangs fails it by
// its path, and the next file runs.

const fileMs = Number(process.env.PAYFLOWS_TEST_FILE_TIMEOUT_MS) || Infinity;

for (const file of process.argv.slice(2)) {
  describe(file, { timeout: fileMs }, async () => {
    await import(pathToFileURL(resolve(file)).href);
  });
}
