import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import { goInstall } from '../../src/temporal/go-install.js';
import { isExecutable } from '../../src/executable.js';

// The Temporal server, its SQL tool and the Web UI server, built from the Go module proxy at the
// versions the compose images carry, each into a folder of its own in the cache outside the repo
// (the server and the UI both install a binary called `server`). Go's build cache is shared with
// the CLI's build, which already compiled most of their dependencies.

/** The server version of temporalio/server and temporalio/admin-tools in docker-compose.yml (and of the CLI's dev server). */
export const SERVER_VERSION = 'v1.29.1';
/** The UI of temporalio/ui in docker-compose.yml, the one the CLI v1.5.1 embeds; later ones need a newer Go. */
export const UI_VERSION = 'v2.42.1';

/** A tool built by `go install module@version`, which names the binary for the module's last element. */
const tool = (name: string, module: string, version: string) => ({ name, module, version, binary: basename(module) });
export type GoTool = ReturnType<typeof tool>;

export const TOOLS = {
  server: tool('temporal-server', 'go.temporal.io/server/cmd/server', SERVER_VERSION),
  sql: tool('temporal-sql-tool', 'go.temporal.io/server/cmd/tools/sql', SERVER_VERSION),
  /** An S3-compatible server over plain files (Apache-2.0), for the claim store's S3 adapter tests. */
  versitygw: tool('versitygw', 'github.com/versity/versitygw/cmd/versitygw', 'v1.8.0'),
  ui: tool('temporal-ui-server', 'github.com/temporalio/ui-server/v2/cmd/server', UI_VERSION),
  /** Helm, to lint and render the chart deploy/helm/payflows (test/cluster/helm-chart.test.ts). */
  helm: tool('helm', 'helm.sh/helm/v3/cmd/helm', 'v3.22.0'),
};

export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'payflows');
}

export function go(): string {
  for (const candidate of ['/usr/local/go/bin/go', '/usr/bin/go']) if (existsSync(candidate)) return candidate;
  try {
    return execFileSync('sh', ['-c', 'command -v go'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error(
      'Go is needed to build the Temporal server, its SQL tool and the UI from the Go module proxy, and examples/go-backend (Go 1.26 or later); install Go',
    );
  }
}

/** The tool's binary, built once into the cache (progress through `log`). */
export async function goTool(tool: GoTool, log: (line: string) => void): Promise<string> {
  const dir = join(cacheRoot(), `${tool.name}-${tool.version}`);
  const path = join(dir, tool.binary);
  if (isExecutable(path)) return path;
  log(`building ${tool.name} ${tool.version} from the Go module proxy into ${dir} (once; minutes on 2 cores)…`);
  mkdirSync(dir, { recursive: true });
  const started = Date.now();
  await goInstall(go(), `${tool.module}@${tool.version}`, dir, log);
  if (!isExecutable(path)) throw new Error(`go install finished but ${path} is missing`);
  log(`${tool.name} built in ${Math.round((Date.now() - started) / 1000)} s: ${path}`);
  return path;
}

/** A module's source in Go's module cache, downloaded if needed: the folder that holds `inside`. */
export function moduleSource(module: string, version: string, inside: string): string {
  const out = execFileSync(go(), ['mod', 'download', '-json', `${module}@${version}`], {
    encoding: 'utf8',
    env: { ...process.env, GOFLAGS: '-mod=mod' },
  });
  const dir = (JSON.parse(out) as { Dir?: string }).Dir;
  if (!dir || !existsSync(join(dir, inside)))
    throw new Error(`go mod download gave no source folder with ${inside}/ for ${module}@${version}`);
  return dir;
}
