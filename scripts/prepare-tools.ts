import { ensureChromium } from './lib/chromium.js';
import { buildLocalModule, goTool, LOCAL_MODULES, TOOLS } from './lib/go-tools.js';
import { ensureHaproxy } from './lib/load-balancer.js';
import { ensurePostgres } from './lib/postgres.js';
import { ensurePrometheus } from './lib/prometheus.js';
import { ensurePythonBackend } from './lib/python-backend.js';
import { findTemporalCli } from '../src/temporal/cli.js';

// `npm run prepare:tools`: everything `npm test` and `npm run test:cluster` install or build on
// first use, done up front and one at a time (two Go builds on 2 cores only slow each other down),
// so that the two suites can run side by side and neither installs nor builds while they run.
// Each step is the function the suites call, which returns at once when its result is there.

const say = (line: string) => console.log(`[prepare-tools] ${line}`);

const STEPS: Array<[string, () => unknown]> = [
  // Debian's packages (root on Debian, as CI runs; elsewhere each says what to install).
  ['PostgreSQL', () => ensurePostgres(say)],
  ['Prometheus', () => ensurePrometheus(say)],
  ['HAProxy', () => ensureHaproxy(say)],
  ['Chromium', () => ensureChromium(say)],
  // Go builds into the cache outside the repo: the CLI first, whose build compiles most of what
  // the server's builds need.
  [
    'Temporal CLI',
    async () => {
      const cli = await findTemporalCli({ log: say });
      if (cli.kind !== 'binary') throw new Error(`no Temporal CLI: ${cli.reason}`);
    },
  ],
  ...Object.values(TOOLS).map((tool) => [tool.name, () => goTool(tool, say)] as [string, () => unknown]),
  ...Object.values(LOCAL_MODULES).map(
    (module) => [module.name, () => buildLocalModule(module, say)] as [string, () => unknown],
  ),
  // examples/python-backend's venv, from PyPI (test/cluster/python-backend.test.ts).
  ['Python backend', () => ensurePythonBackend(say)],
];

const started = Date.now();
for (const [name, step] of STEPS) {
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
