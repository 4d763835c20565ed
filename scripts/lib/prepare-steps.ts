import { ensureChromium } from './chromium.js';
import { buildLocalModule, type GoTool, goTool, LOCAL_MODULES, type LocalGoModule, TOOLS } from './go-tools.js';
import { ensureHaproxy } from './load-balancer.js';
import { ensurePostgres } from './postgres.js';
import { ensurePrometheus } from './prometheus.js';
import { ensurePythonBackend } from './python-backend.js';
import { findTemporalCli } from '../../src/temporal/cli.js';

// The steps of `npm run prepare:tools` (scripts/prepare-tools.ts), in their order, and which of them
// the cluster suite needs before it starts its cluster and its first files (those run alone).

type Log = (line: string) => void;
export interface PrepareStep {
  name: string;
  run: (log: Log) => unknown;
  /** Needed to start `npm run test:cluster`: its cluster, its UI, its browser. */
  clusterStart: boolean;
}

export const FIRST_GO_BUILD = 'Temporal CLI';

const step = (name: string, run: (log: Log) => unknown, opts: { clusterStart: boolean }): PrepareStep => ({
  name,
  run,
  ...opts,
});
const localModule = (module: LocalGoModule, opts: { clusterStart: boolean }) =>
  step(module.name, (log) => buildLocalModule(module, log), opts);
const tool = (goTool_: GoTool, opts: { clusterStart: boolean }) =>
  step(goTool_.name, (log) => goTool(goTool_, log), opts);

export const PREPARE_STEPS: PrepareStep[] = [
  // Debian's packages (root on Debian, as CI runs; elsewhere each says what to install).
  step('PostgreSQL', (log) => ensurePostgres(log), { clusterStart: true }),
  step('Prometheus', (log) => ensurePrometheus(log), { clusterStart: true }),
  step('HAProxy', (log) => ensureHaproxy(log), { clusterStart: true }),
  step('Chromium', (log) => ensureChromium(log), { clusterStart: true }),
  // Go builds into the cache outside the repo: the CLI first, whose build compiles nearly all that
  // the server's module (the server, its SQL tool) needs at the same versions, then what the
  // cluster's start needs, then the other tools.
  step(
    FIRST_GO_BUILD,
    async (log) => {
      const cli = await findTemporalCli({ log });
      if (cli.kind !== 'binary') throw new Error(`no Temporal CLI: ${cli.reason}`);
    },
    { clusterStart: true },
  ),
  localModule(LOCAL_MODULES.server, { clusterStart: true }),
  localModule(LOCAL_MODULES.sqlTool, { clusterStart: true }),
  tool(TOOLS.ui, { clusterStart: true }),
  // examples/python-backend's venv, from PyPI: first of the rest, as test/cluster/python-backend.test.ts
  // is among the cluster suite's longest files, which start first once those run alone are done.
  step('Python backend', (log) => ensurePythonBackend(log), { clusterStart: false }),
  localModule(LOCAL_MODULES.goBackend, { clusterStart: false }),
  localModule(LOCAL_MODULES.composeConfig, { clusterStart: false }),
  tool(TOOLS.versitygw, { clusterStart: false }),
  tool(TOOLS.helm, { clusterStart: false }),
];

/** What `npm run prepare:tools -- <part>` prepares; no part is everything. */
export const PREPARE_PARTS = { 'cluster-start': (s: PrepareStep) => s.clusterStart } as const;

/** The steps for the command line's part, or an error naming the parts there are. */
export function prepareSteps(part: string | undefined, steps: PrepareStep[] = PREPARE_STEPS): PrepareStep[] {
  if (part === undefined) return steps;
  if (!Object.hasOwn(PREPARE_PARTS, part))
    throw new Error(
      `npm run prepare:tools: no part ${JSON.stringify(part)}; give none (everything) or one of ${Object.keys(PREPARE_PARTS).join(', ')}`,
    );
  return steps.filter(PREPARE_PARTS[part as keyof typeof PREPARE_PARTS]);
}
