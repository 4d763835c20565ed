import { ensureChromium } from './lib/chromium.js';
import { buildLocalModule, downloadGoModules, goTool, LOCAL_MODULES, TOOLS } from './lib/go-tools.js';
import { ensureHaproxy } from './lib/load-balancer.js';
import { ensurePostgres } from './lib/postgres.js';
import { ensurePrometheus } from './lib/prometheus.js';
import { ensurePythonBackend } from './lib/python-backend.js';
import { CLI_MODULE, findTemporalCli } from '../src/temporal/cli.js';

// `npm run prepare:tools`: everything `npm test` and `npm run test:cluster` install or build on
// first use, done up front, so that the two suites can run side by side and neither installs nor
// builds while they run. Each step is the function the suites call, which returns at once when its
// result is there. The steps run one at a time (two Go builds on 2 cores only slow each other
// down); only the Go builds' downloads, which wait on the network, run beside the Debian packages.

const say = (line: string) => console.log(`[prepare-tools] ${line}`);
const FIRST_GO_BUILD = 'Temporal CLI';

const STEPS: Array<[string, () => unknown]> = [
  // Debian's packages (root on Debian, as CI runs; elsewhere each says what to install).
  ['PostgreSQL', () => ensurePostgres(say)],
  ['Prometheus', () => ensurePrometheus(say)],
  ['HAProxy', () => ensureHaproxy(say)],
  ['Chromium', () => ensureChromium(say)],
  // Go builds into the cache outside the repo, once their modules are downloaded: the CLI first,
  // whose build compiles nearly all that the server's module (the server, its SQL tool) needs at the
  // same versions, then this repository's modules, then the other tools.
  [
    FIRST_GO_BUILD,
    async () => {
      const cli = await findTemporalCli({ log: say });
      if (cli.kind !== 'binary') throw new Error(`no Temporal CLI: ${cli.reason}`);
    },
  ],
  ...Object.values(LOCAL_MODULES).map(
    (module) => [module.name, () => buildLocalModule(module, say)] as [string, () => unknown],
  ),
  ...Object.values(TOOLS).map((tool) => [tool.name, () => goTool(tool, say)] as [string, () => unknown]),
  // examples/python-backend's venv, from PyPI (test/cluster/python-backend.test.ts).
  ['Python backend', () => ensurePythonBackend(say)],
];

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
for (const [name, step] of STEPS) {
  if (name === FIRST_GO_BUILD) await downloads;
  const stepStarted = Date.now();
  try {
    await step();
  } catch (err) {
    console.error(`[prepare-tools] ${name} failed: ${(err as Error).message}`);
    process.exit(1);
  }
  say(`${name}: ready (${Math.round((Date.now() - stepStarted) / 1000)} s)`);
}
say(`everything ready in ${Math.round((Date.now() - started) / 1000)} s`);
