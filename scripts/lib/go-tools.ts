import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { GO_BUILD_FLAGS, goInstall, runGo } from '../../src/temporal/go-install.js';
import { isExecutable } from '../../src/executable.js';

// The tools the suites run, built from the Go module proxy at pinned versions, each into a folder
// of its own in the cache outside the repo (the UI installs a binary called `server`). The Temporal
// server and its SQL tool are not among them: they are built from deploy/temporal/server's module
// (LOCAL_MODULES below), whose go.sum pins the versions the CLI's build compiled, so that Go's build
// cache, shared with the CLI's build, already holds nearly all of their packages.

/** The server version of temporalio/server and temporalio/admin-tools in docker-compose.yml (and of the CLI's dev server). */
export const SERVER_VERSION = 'v1.29.1';
/** The UI of temporalio/ui in docker-compose.yml, the one the CLI v1.5.1 embeds; later ones need a newer Go. */
export const UI_VERSION = 'v2.42.1';

/**
 * The flags for a tool that only tests run, briefly (helm renders a chart, versitygw answers a few
 * S3 calls): GO_BUILD_FLAGS without the compiler's optimizations and inlining (-N -l). A third less
 * CPU to build, measured from empty caches: versitygw 137 CPU s against 207, helm 201 against 304.
 * The binaries run slower, where no test waits on their speed. They share no packages with the
 * CLI's build that the flags would make compile twice worth counting.
 */
export const TEST_TOOL_BUILD_FLAGS = ['-gcflags=all=-N -l -dwarf=false', '-ldflags=-w'];

/** A tool built by `go install module@version`, which names the binary for the module's last element. */
const tool = (name: string, module: string, version: string, flags: readonly string[] = GO_BUILD_FLAGS) => ({
  name,
  module,
  version,
  binary: basename(module),
  flags,
});
export type GoTool = ReturnType<typeof tool>;

export const TOOLS = {
  /** An S3-compatible server over plain files (Apache-2.0), for the claim store's S3 adapter tests. */
  versitygw: tool('versitygw', 'github.com/versity/versitygw/cmd/versitygw', 'v1.8.0', TEST_TOOL_BUILD_FLAGS),
  /** Optimized, as the CLI that embeds it is built: it reuses the CLI's compiled packages. */
  ui: tool('temporal-ui-server', 'github.com/temporalio/ui-server/v2/cmd/server', UI_VERSION),
  /** Helm, to lint and render the chart deploy/helm/payflows (test/cluster/helm-chart.test.ts). */
  helm: tool('helm', 'helm.sh/helm/v3/cmd/helm', 'v3.22.0', TEST_TOOL_BUILD_FLAGS),
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

/** Where the tool's binary is, once built. */
const toolPath = (tool: GoTool) => join(cacheRoot(), `${tool.name}-${tool.version}`, tool.binary);

/** The tool's binary, built once into the cache (progress through `log`). */
export async function goTool(tool: GoTool, log: (line: string) => void): Promise<string> {
  const path = toolPath(tool);
  const dir = dirname(path);
  if (isExecutable(path)) return path;
  log(`building ${tool.name} ${tool.version} from the Go module proxy into ${dir} (once; minutes on 2 cores)…`);
  mkdirSync(dir, { recursive: true });
  const started = Date.now();
  await goInstall(go(), `${tool.module}@${tool.version}`, dir, log, { flags: tool.flags });
  if (!isExecutable(path)) throw new Error(`go install finished but ${path} is missing`);
  log(`${tool.name} built in ${Math.round((Date.now() - started) / 1000)} s: ${path}`);
  return path;
}

// Go modules of this repository, built with the machine's Go, their dependencies from the Go module
// proxy as go.sum pins them (-mod=readonly: a go.mod that needs tidying fails the build, it is never
// rewritten), into the cache outside the repo under a hash of their sources and of the Go version:
// built once per change, reused by every run after. Go's build cache is shared with the CLI's build,
// so the Temporal server's packages are already compiled and a change mostly links.

/** A module of this repository (one folder, flat) and the binary built from its `pkg` (its own main package unless named). */
const localModule = (name: string, dir: string, binary = name, pkg = '.') => ({ name, dir: resolve(dir), binary, pkg });
export type LocalGoModule = ReturnType<typeof localModule>;

export const LOCAL_MODULES = {
  /** The Temporal server at SERVER_VERSION with the authorizer of deploy/temporal/server/authorizer.go: what docker-compose.yml, `npm run cluster` and every test cluster run. */
  server: localModule('temporal-server-payflows', 'deploy/temporal/server', 'temporal-server'),
  /** temporal-sql-tool at SERVER_VERSION (a tool of the server's module), which creates and updates the cluster's schemas. */
  sqlTool: localModule('temporal-sql-tool', 'deploy/temporal/server', 'sql', 'go.temporal.io/server/cmd/tools/sql'),
  goBackend: localModule('go-backend', 'examples/go-backend'),
  /** docker-compose.yml loaded and validated as `docker compose config` does, with no Docker engine. */
  composeConfig: localModule('compose-config', 'deploy/compose-config'),
};

/** A hash of what the binary is built from: go.mod, go.sum, the .go files, the toolchain and its flags. */
export function sourcesHash(
  dir: string,
  goVersion = execFileSync(go(), ['version'], { encoding: 'utf8' }),
  buildFlags: readonly string[] = GO_BUILD_FLAGS,
): string {
  const hash = createHash('sha256')
    .update(goVersion)
    .update(`\0${buildFlags.join(' ')}`);
  const files = readdirSync(dir)
    .filter((f) => f === 'go.mod' || f === 'go.sum' || f.endsWith('.go'))
    .sort();
  for (const f of files) hash.update(`\0${f}\0`).update(readFileSync(join(dir, f)));
  return hash.digest('hex').slice(0, 16);
}

/** The module's binary, built if this version of its sources has not been. */
export async function buildLocalModule(module: LocalGoModule, log: (line: string) => void): Promise<string> {
  const dir = join(cacheRoot(), module.name, sourcesHash(module.dir));
  const path = join(dir, module.binary);
  if (isExecutable(path)) return path;
  mkdirSync(dir, { recursive: true });
  log(`building ${module.name} from ${module.dir} into ${dir} (once per change of its sources)…`);
  const started = Date.now();
  // Built beside, then renamed: a build cut short leaves no binary that looks finished.
  const partial = `${path}.${process.pid}.partial`;
  try {
    // Without -trimpath: the flags match `go install`'s, so the packages it compiled are reused.
    await runGo(go(), ['build', ...GO_BUILD_FLAGS, '-o', partial, module.pkg], {
      cwd: module.dir,
      env: { ...process.env, GOFLAGS: [process.env.GOFLAGS, '-mod=readonly'].filter(Boolean).join(' ') },
      log,
    });
    renameSync(partial, path);
  } finally {
    rmSync(partial, { force: true });
  }
  log(`${module.name} built in ${Math.round((Date.now() - started) / 1000)} s: ${path}`);
  return path;
}

/**
 * `go test` for a module of this repository: its own tests, run every time (-count=1), without go
 * vet. Vet in `go test` type-checks every package the module depends on from source, for the facts
 * its checks share: 1,254 packages for the server's module, 440 for the Go backend, about as much
 * CPU as compiling them, which the build before it already did.
 */
export const GO_TEST_ARGS = ['test', ...GO_BUILD_FLAGS, '-count=1', '-vet=off', './...'];

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

/** One `go` command run for what it fetches into Go's module cache: its output to a file, read back if it fails. */
function fetchModules(args: string[], cwd: string | undefined, env: NodeJS.ProcessEnv): Promise<void> {
  const logDir = mkdtempSync(join(tmpdir(), 'payflows-go-download-'));
  const logFile = join(logDir, 'go.log');
  const out = openSync(logFile, 'w');
  return new Promise<void>((resolvePromise, reject) => {
    const child = spawn(go(), args, { cwd, env, stdio: ['ignore', out, out] });
    child.on('error', reject);
    child.on('exit', (code) => {
      const tail = readFileSync(logFile, 'utf8').trim().split('\n').slice(-20).join('\n');
      if (code === 0) resolvePromise();
      else reject(new Error(`go ${args.join(' ')}${cwd ? ` (in ${cwd})` : ''} failed (exit ${code}):\n${tail}`));
    });
  }).finally(() => {
    closeSync(out);
    rmSync(logDir, { recursive: true, force: true });
  });
}

/**
 * Fetches the modules of every Go build not yet in the cache, side by side and without compiling,
 * so that the builds after it spend their time compiling: a fresh machine's downloads (the CLI's
 * alone is most of a minute) then overlap with the Debian packages' installs. Each runs in a child
 * process of its own (`go install -n` loads the packages as the install would, and prints what it
 * would run), so a synchronous install meanwhile holds none of them up.
 */
export function downloadGoModules(cli: { module: string; built: boolean }): Promise<void> {
  const remote = (moduleAtVersion: string) =>
    fetchModules(['install', '-n', moduleAtVersion], undefined, {
      ...process.env,
      GOFLAGS: [process.env.GOFLAGS, '-mod=mod'].filter(Boolean).join(' '),
    });
  const jobs: Array<Promise<void>> = [];
  if (!cli.built) jobs.push(remote(cli.module));
  for (const tool of Object.values(TOOLS))
    if (!isExecutable(toolPath(tool))) jobs.push(remote(`${tool.module}@${tool.version}`));
  for (const dir of new Set(Object.values(LOCAL_MODULES).map((m) => m.dir)))
    jobs.push(fetchModules(['mod', 'download'], dir, process.env));
  return Promise.all(jobs).then(() => undefined);
}
