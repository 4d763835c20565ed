import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ConfigError } from '../src/config.js';

// Which build a worker is: its version in the Worker Deployment (docs/deploying.md). Workers of
// the same code must share it and a change to a workflow must get a new one, so it comes from the
// build, never from the process: WORKER_BUILD_ID (an image's tag, a CI pipeline's id), else the id
// `npm run build` wrote beside the compiled worker, else the commit of the checkout it runs from.

/** Written by scripts/build.ts; only a compiled worker (dist/worker/) has it beside it. */
export const BUILD_ID_FILE = fileURLToPath(new URL('../build-id.txt', import.meta.url));
const compiled = import.meta.url.endsWith('.js');

export type BuildIdSource = 'WORKER_BUILD_ID' | 'build' | 'git';

export interface BuildIdFinders {
  /** The id `npm run build` wrote; undefined when there is none. */
  built: () => string | undefined;
  /** The checkout's commit; undefined outside a git checkout. */
  gitCommit: () => string | undefined;
}

export const defaultFinders: BuildIdFinders = {
  built: () => (compiled ? readTrimmed(BUILD_ID_FILE) : undefined),
  gitCommit,
};

export function resolveBuildId(
  configured: string | undefined,
  finders: BuildIdFinders = defaultFinders,
): { buildId: string; source: BuildIdSource } {
  if (configured) return { buildId: configured, source: 'WORKER_BUILD_ID' };
  const built = finders.built();
  if (built) return { buildId: built, source: 'build' };
  const commit = finders.gitCommit();
  if (commit) return { buildId: commit, source: 'git' };
  throw new ConfigError(
    'Invalid configuration: the worker has no build id: WORKER_BUILD_ID is unset, `npm run build` wrote none ' +
      `(${BUILD_ID_FILE}) and this is not a git checkout. Set WORKER_BUILD_ID to this build's id (e.g. the image ` +
      'tag), or WORKER_VERSIONING=off for a Temporal server without Worker Deployments.',
  );
}

/** The short commit of the checkout this module is in (12 hex digits, as an image tag would be). */
export function gitCommit(cwd = fileURLToPath(new URL('..', import.meta.url))): string | undefined {
  try {
    return execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return undefined;
  }
}

function readTrimmed(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}
