import { downloadGoModules } from './lib/go-tools.js';
import { FIRST_GO_BUILD, type PrepareStep, prepareSteps } from './lib/prepare-steps.js';
import { CLI_MODULE, findTemporalCli } from '../src/temporal/cli.js';

// `npm run prepare:tools`: everything `npm test` and `npm run test:cluster` install or build on
// first use, done up front, so that the two suites can run side by side and neither installs nor
// builds while they run. Each step is the function the suites call, which returns at once when its
// result is there. The steps run one at a time (two Go builds on 2 cores only slow each other
// down); only the Go builds' downloads, which wait on the network, run beside the Debian packages.
//
// `npm run prepare:tools -- cluster-start` stops once the cluster suite can start its cluster and
// its first files (those run alone, which mostly wait; scripts/lib/prepare-steps.ts): CI starts that
// suite there, while a second `npm run prepare:tools` builds the rest, which only its later files and
// `npm test` use.

const say = (line: string) => console.log(`[prepare-tools] ${line}`);
const part = process.argv[2];
let steps: PrepareStep[];
try {
  steps = prepareSteps(part);
} catch (err) {
  console.error(`[prepare-tools] ${(err as Error).message}`);
  process.exit(2);
}

const started = Date.now();
const cli = await findTemporalCli({ build: false });
const downloadStarted = Date.now();
const downloads = downloadGoModules({ module: CLI_MODULE, built: cli.kind === 'binary' }).then(
  () => say(`Go modules: downloaded beside the other steps (${Math.round((Date.now() - downloadStarted) / 1000)} s)`),
  (err: Error) => {
    console.error(`[prepare-tools] downloading the Go builds' modules failed: ${err.message}`);
    process.exit(1);
  },
);
for (const { name, run } of steps) {
  if (name === FIRST_GO_BUILD) await downloads;
  const stepStarted = Date.now();
  try {
    await run(say);
  } catch (err) {
    console.error(`[prepare-tools] ${name} failed: ${(err as Error).message}`);
    process.exit(1);
  }
  say(`${name}: ready (${Math.round((Date.now() - stepStarted) / 1000)} s)`);
}
say(`${part ? `what ${part} needs` : 'everything'} ready in ${Math.round((Date.now() - started) / 1000)} s`);
