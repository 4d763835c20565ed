import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError } from '../src/config.js';
import { readTrimmed } from './text-file.js';

// Which build a worker is: its version in the Worker Deployment (docs/deploying.md). It comes from
// the build, never the process: WORKER_BUILD_ID (an image's tag), else the id `npm run build` wrote
// beside the compiled worker; only on the embedded server a checkout's commit, with a hash of its
// changes when the tree is modified (else other code would join the clean commit's version).

/** Written by scripts/build.ts; only a compiled worker (dist/worker/) has it beside it. */
export const BUILD_ID_FILE = fileURLToPath(new URL('../build-id.txt', import.meta.url));
const compiled = import.meta.url.endsWith('.js');
const home = fileURLToPath(new URL('..', import.meta.url));

export type BuildIdSource = 'WORKER_BUILD_ID' | 'build' | 'git';

export interface BuildIdFinders {
  /** The id `npm run build` wrote; undefined when there is none. */
  built: () => string | undefined;
  /** The checkout's commit, `-dirty-<hash>` when modified; undefined outside a git checkout. */
  checkout: () => string | undefined;
}

export const defaultFinders: BuildIdFinders = {
  built: () => (compiled ? readTrimmed(BUILD_ID_FILE) : undefined),
  checkout: () => checkoutBuildId(),
};

export interface BuildIdContext {
  /** On the embedded server (TEMPORAL_ADDRESS unset): a checkout's commit will do. */
  embedded: boolean;
  /** The worker runs a bundle its caller chose (workflowBundlePath), not necessarily payflows' build. */
  callersBundle: boolean;
}

export function resolveBuildId(
  configured: string | undefined,
  context: BuildIdContext,
  finders: BuildIdFinders = defaultFinders,
): { buildId: string; source: BuildIdSource } {
  if (configured) return { buildId: configured, source: 'WORKER_BUILD_ID' };
  if (context.callersBundle)
    throw new ConfigError(
      "Invalid configuration: a worker given its caller's workflow bundle (createWorker's workflowBundlePath) " +
        "needs WORKER_BUILD_ID: payflows' own build id (dist/build-id.txt) names other code. Set WORKER_BUILD_ID " +
        "to that bundle's build id, or WORKER_VERSIONING=off.",
    );
  const built = finders.built();
  if (built) return { buildId: built, source: 'build' };
  if (!context.embedded)
    throw new ConfigError(
      'Invalid configuration: the worker has no build id: WORKER_BUILD_ID is unset and `npm run build` wrote ' +
        `none (${BUILD_ID_FILE}); off the embedded server a checkout's commit is not taken (its working tree may ` +
        "differ). Set WORKER_BUILD_ID to this build's id (e.g. the image tag), run the compiled worker of " +
        '`npm run build`, or set WORKER_VERSIONING=off for a Temporal server without Worker Deployments.',
    );
  const checkout = finders.checkout();
  if (checkout) return { buildId: checkout, source: 'git' };
  throw new ConfigError(
    'Invalid configuration: the worker has no build id: WORKER_BUILD_ID is unset, `npm run build` wrote none ' +
      `(${BUILD_ID_FILE}) and this is not a git checkout. Set WORKER_BUILD_ID to this build's id, or ` +
      'WORKER_VERSIONING=off.',
  );
}

/**
 * The short commit of the checkout at `cwd` (12 hex digits, as an image tag would be), followed by
 * `-dirty-<12 hex digits of its changes>` when its tree differs from the commit. Undefined outside a
 * git checkout, and inside node_modules, where the checkout is the consumer's, not payflows'.
 */
export function checkoutBuildId(cwd = home): string | undefined {
  if (`${cwd}${sep}`.includes(`${sep}node_modules${sep}`)) return undefined;
  const commit = git(cwd, 'rev-parse', '--short=12', 'HEAD')?.toString().trim();
  if (!commit) return undefined;
  const status = git(cwd, 'status', '--porcelain', '-z');
  if (status === undefined) return undefined;
  if (status.length === 0) return commit;
  const hash = createHash('sha256').update(git(cwd, 'diff', 'HEAD', '--binary') ?? '');
  // New files are changes too: their names and contents.
  for (const path of (git(cwd, 'ls-files', '--others', '--exclude-standard', '-z') ?? '').toString().split('\0')) {
    if (!path) continue;
    hash.update(`\0${path}\0`);
    hash.update(readTrimmed(`${cwd}${sep}${path}`) ?? '');
  }
  return `${commit}-dirty-${hash.digest('hex').slice(0, 12)}`;
}

function git(cwd: string, ...args: string[]): Buffer | undefined {
  try {
    return execFileSync('git', args, { cwd, stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 256 * 1024 * 1024 });
  } catch {
    return undefined;
  }
}
