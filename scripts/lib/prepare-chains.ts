import { ensureChromium } from './chromium.js';
import { buildLocalModule, goTool, LOCAL_MODULES, TOOLS } from './go-tools.js';
import { ensureHaproxy } from './load-balancer.js';
import { ensurePostgres } from './postgres.js';
import { ensurePrometheus } from './prometheus.js';
import { ensurePythonBackend } from './python-backend.js';
import { findTemporalCli } from '../../src/temporal/cli.js';

// What `npm run prepare:tools` installs and builds, in three chains that run side by side, each one
// step at a time. A Go build's last step, the link, runs on one core; a build after the Temporal
// CLI mostly links (it reuses the CLI's packages), so one chain of Go builds left a core idle for
// minutes of a fresh CI. Two chains fill those minutes with each other's compiling.

export type Say = (line: string) => void;
export interface PrepareStep {
  name: string;
  run: (say: Say) => unknown;
}

export const CLI_STEP = 'Temporal CLI';

export const PREPARE_CHAINS = {
  /**
   * Debian's packages (root on Debian, as CI runs; elsewhere each says what to install) and the
   * Python backend's venv from PyPI: the network and dpkg, little CPU. Their functions are
   * synchronous, so this chain runs in a process of its own.
   */
  packages: [
    { name: 'PostgreSQL', run: (say) => ensurePostgres(say) },
    { name: 'Prometheus', run: (say) => ensurePrometheus(say) },
    { name: 'HAProxy', run: (say) => ensureHaproxy(say) },
    { name: 'Chromium', run: (say) => ensureChromium(say) },
    { name: 'Python backend', run: (say) => ensurePythonBackend(say) },
  ],
  /**
   * The CLI first: its build compiles nearly every package that the server's module (the server,
   * its SQL tool) and the UI server need, at the same versions, so each of them after it mostly
   * links; and the Temporal Go SDK the Go backend uses (in the other chain, CI26 built it beside the
   * CLI's build and compiled the SDK twice: 88 s against 46).
   */
  cli: [
    {
      name: CLI_STEP,
      run: async (say) => {
        const cli = await findTemporalCli({ log: say });
        if (cli.kind !== 'binary') throw new Error(`no Temporal CLI: ${cli.reason}`);
      },
    },
    localModuleStep(LOCAL_MODULES.server),
    localModuleStep(LOCAL_MODULES.sqlTool),
    toolStep(TOOLS.ui),
    localModuleStep(LOCAL_MODULES.goBackend),
  ],
  /** The builds that share nothing worth counting with the CLI's. */
  go: [toolStep(TOOLS.versitygw), toolStep(TOOLS.helm), localModuleStep(LOCAL_MODULES.composeConfig)],
} satisfies Record<string, PrepareStep[]>;

export type ChainName = keyof typeof PREPARE_CHAINS;

function localModuleStep(module: (typeof LOCAL_MODULES)[keyof typeof LOCAL_MODULES]): PrepareStep {
  return { name: module.name, run: (say) => buildLocalModule(module, say) };
}

function toolStep(tool: (typeof TOOLS)[keyof typeof TOOLS]): PrepareStep {
  return { name: tool.name, run: (say) => goTool(tool, say) };
}

/** Runs the chain's steps one after another, each named with its time; rejects naming the step that failed. */
export async function runChain(steps: readonly PrepareStep[], say: Say): Promise<void> {
  for (const step of steps) {
    const started = Date.now();
    try {
      await step.run(say);
    } catch (err) {
      throw new Error(`${step.name} failed: ${(err as Error).message}`, { cause: err });
    }
    say(`${step.name}: ready (${Math.round((Date.now() - started) / 1000)} s)`);
  }
}
