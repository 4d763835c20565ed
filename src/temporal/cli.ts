import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { goInstall } from './go-install.js';
import { isExecutable } from '../executable.js';

// The `temporal` CLI, in this order: TEMPORAL_CLI_PATH, PATH, the cache outside the repo, a build
// from the Go module proxy into it; without Go, the caller falls back to the SDK's own download.

/** Later tags carry a replace directive that `go install` refuses; v1.5.1 embeds the Web UI. */
export const CLI_VERSION = 'v1.5.1';
export const CLI_MODULE = `github.com/temporalio/cli/cmd/temporal@${CLI_VERSION}`;

export type CliLocation =
  | { kind: 'binary'; path: string; source: 'TEMPORAL_CLI_PATH' | 'PATH' | 'cache' | 'built' }
  | { kind: 'sdk-download'; reason: string };

export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'payflows', `temporal-cli-${CLI_VERSION}`);
}

export function onPath(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir && isExecutable(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

export async function findTemporalCli(
  opts: { env?: NodeJS.ProcessEnv; log?: (line: string) => void; build?: boolean } = {},
): Promise<CliLocation> {
  const env = opts.env ?? process.env;
  const log = opts.log ?? (() => {});
  if (env.TEMPORAL_CLI_PATH) {
    if (!isExecutable(env.TEMPORAL_CLI_PATH))
      throw new Error(`TEMPORAL_CLI_PATH=${env.TEMPORAL_CLI_PATH} is not an executable file; fix or unset it`);
    return { kind: 'binary', path: env.TEMPORAL_CLI_PATH, source: 'TEMPORAL_CLI_PATH' };
  }
  const fromPath = onPath('temporal', env);
  if (fromPath) return { kind: 'binary', path: fromPath, source: 'PATH' };

  const dir = cacheDir(env);
  const cached = join(dir, 'temporal');
  if (isExecutable(cached)) return { kind: 'binary', path: cached, source: 'cache' };

  const go = onPath('go', env) ?? (existsSync('/usr/local/go/bin/go') ? '/usr/local/go/bin/go' : undefined);
  if (!go)
    return { kind: 'sdk-download', reason: 'no temporal CLI on PATH or in the cache, and no Go toolchain to build it' };
  if (opts.build === false) return { kind: 'sdk-download', reason: 'building was not allowed' };

  log(
    `Building the Temporal CLI ${CLI_VERSION} from the Go module proxy into ${dir} (once; a few minutes on 2 cores)…`,
  );
  mkdirSync(dir, { recursive: true });
  try {
    await goInstall(go, CLI_MODULE, dir, log, { env });
  } catch (err) {
    throw new Error(`${(err as Error).message}\nSet TEMPORAL_CLI_PATH to a temporal binary to skip the build.`);
  }
  if (!isExecutable(cached)) throw new Error(`go install finished but ${cached} is missing`);
  log(`Temporal CLI built: ${cached}`);
  return { kind: 'binary', path: cached, source: 'built' };
}
