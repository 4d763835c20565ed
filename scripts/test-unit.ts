import { oneProcessCommand } from './lib/test-timeouts.js';
import { runNode, testFiles } from './lib/test-run.js';

// `npm run test:unit`: the fast loop. node's test runner over test/unit alone, every file in one
// process (scripts/lib/unit-in-one-process.ts), with no Temporal server and no workflow bundle:
// the address and bundle a shell may carry are dropped, so a unit test that needs either fails
// here instead of passing by luck. `npm test` runs these (a process per file) and the rest.

delete process.env.TEMPORAL_ADDRESS;
delete process.env.TEST_WORKFLOW_BUNDLE;
const files = process.argv.slice(2).length ? process.argv.slice(2) : testFiles('test/unit');
process.exit(await runNode(oneProcessCommand(files), {}));
