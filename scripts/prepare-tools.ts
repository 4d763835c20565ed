import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { downloadGoModules } from './lib/go-tools.js';
import { type ChainName, PREPARE_CHAINS, runChain } from './lib/prepare-chains.js';
import { CLI_MODULE, findTemporalCli } from '../src/temporal/cli.js';

// `npm run prepare:tools`: everything `npm test` and `npm run test:cluster` install or build on
// first use, done up front, so that the two suites can run side by side and neither installs nor
// builds while they run. Each step is the function the suites call, which returns at once when its
// result is there. The chains of scripts/lib/prepare-chains.ts run side by side: Debian's packages
// in a process of their own (`prepare-tools.ts packages`), the two chains of Go builds here once
// their modules are downloaded (beside the packages).

const say = (line: string) => console.log(`[prepare-tools] ${line}`);
const fail = (message: string): never => {
  console.error(`[prepare-tools] ${message}`);
  process.exit(1);
};

const only = process.argv[2];
if (only !== undefined) {
  if (!Object.hasOwn(PREPARE_CHAINS, only))
    fail(`no chain "${only}"; the chains are ${Object.keys(PREPARE_CHAINS).join(', ')} (or none: all of them)`);
  await runChain(PREPARE_CHAINS[only as ChainName], say).catch((err: Error) => fail(err.message));
  process.exit(0);
}

const started = Date.now();
const packages = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), 'packages'], {
  stdio: 'inherit',
});
const packagesDone = new Promise<void>((resolve, reject) => {
  packages.on('error', reject);
  packages.on('exit', (code, signal) =>
    code === 0 ? resolve() : reject(new Error(`the packages chain ended with ${signal ?? `exit ${code}`}`)),
  );
});
// A failure elsewhere ends the run; the packages' process with it.
process.on('exit', () => packages.exitCode === null && packages.kill());

const cli = await findTemporalCli({ build: false });
const downloadStarted = Date.now();
await downloadGoModules({ module: CLI_MODULE, built: cli.kind === 'binary' }).catch((err: Error) =>
  fail(`downloading the Go builds' modules failed: ${err.message}`),
);
say(`Go modules: downloaded beside the packages (${Math.round((Date.now() - downloadStarted) / 1000)} s)`);
await Promise.all([runChain(PREPARE_CHAINS.cli, say), runChain(PREPARE_CHAINS.go, say), packagesDone]).catch(
  (err: Error) => fail(err.message),
);
say(`everything ready in ${Math.round((Date.now() - started) / 1000)} s`);
