import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, openSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { basename, join, resolve } from 'node:path';
import { findTemporalCli } from '../../src/temporal/cli.js';
import { freePort } from '../../src/temporal/ports.js';
import { stopChild, stopOnFailure, terminate } from './child.js';
import { goTool, moduleSource, TOOLS } from './go-tools.js';
import { type RunningPostgres, startPostgres } from './postgres.js';
import { clientTlsEnv, type FrontendTls } from './tls.js';

// A Temporal cluster on PostgreSQL, on this machine, configured by the files that
// docker-compose.yml ships: deploy/temporal/production.yaml for the server and
// deploy/temporal/setup.sh for the schemas, the namespace and the search attributes.

export const SERVER_CONFIG_DIR = resolve('deploy/temporal');
export const SETUP_SCRIPT = resolve('deploy/temporal/setup.sh');

export interface TemporalCluster {
  /** The frontend, host:port. */
  address: string;
  namespace: string;
  /** The server's own Prometheus endpoint, host:port. */
  metrics: string;
  postgres: RunningPostgres;
  /** Files where each process writes its output. */
  logs: string;
  stop(): Promise<void>;
}

export async function startTemporalCluster(opts: {
  dir: string;
  log: (line: string) => void;
  namespace?: string;
  retention?: string;
  /** An existing PostgreSQL (another cluster's), with databases of this cluster's own names. */
  postgres?: RunningPostgres;
  databases?: { main: string; visibility: string };
  tls?: FrontendTls;
  /**
   * Dynamic config values on top of deploy/temporal/dynamicconfig.yaml (keys it does not set), for a
   * test cluster: written with it into the cluster's folder.
   */
  dynamicConfig?: Record<string, unknown>;
  /**
   * Stops the start-up: the step under way ends (a Go build or setup step killed), what was
   * started is stopped in reverse order, and the promise rejects.
   */
  signal?: AbortSignal;
}): Promise<TemporalCluster> {
  const { dir, log, signal } = opts;
  const logs = join(dir, 'logs');
  mkdirSync(logs, { recursive: true });
  // One build at a time: two Go builds on 2 cores only slow each other down.
  const [server, sqlTool, cli] = await whileBuilding(
    signal,
    async () =>
      [await goTool(TOOLS.server, log), await goTool(TOOLS.sql, log), await findTemporalCli({ log })] as const,
  );
  if (cli.kind !== 'binary') throw new Error(`the Temporal CLI is needed for the cluster's setup: ${cli.reason}`);
  const bin = join(dir, 'bin');
  mkdirSync(bin, { recursive: true });
  symlinkSync(sqlTool, join(bin, 'temporal-sql-tool'));
  symlinkSync(cli.path, join(bin, 'temporal'));

  const ownsPostgres = opts.postgres === undefined;
  // The postgres user must reach its data folder: under the cluster's folder in the system's
  // temporary directory, never under a 0700 home.
  const postgres =
    opts.postgres ??
    (await startPostgres({
      dataDir: join(dir, 'postgresql'),
      port: await freePort(),
      user: 'temporal',
      password: 'temporal',
      log,
      signal,
    }));
  let child: ChildProcess | undefined;
  // Everything after PostgreSQL stops it again on a failure or an abort (the server first).
  const stop = async () => {
    if (child) await stopChild(child, 'SIGTERM', 15_000);
    if (ownsPostgres) await postgres.stop();
  };
  log(`PostgreSQL ${postgres.host}:${postgres.port} (data in ${postgres.dataDir})`);
  return stopOnFailure(stop, startServer);

  async function startServer(): Promise<TemporalCluster> {
    const databases = opts.databases ?? { main: 'temporal', visibility: 'temporal_visibility' };
    const namespace = opts.namespace ?? 'default';
    const ports = {
      FRONTEND_GRPC_PORT: await freePort(),
      FRONTEND_HTTP_PORT: await freePort(),
      FRONTEND_MEMBERSHIP_PORT: await membershipPort(),
      HISTORY_GRPC_PORT: await freePort(),
      HISTORY_MEMBERSHIP_PORT: await membershipPort(),
      MATCHING_GRPC_PORT: await freePort(),
      MATCHING_MEMBERSHIP_PORT: await membershipPort(),
      WORKER_GRPC_PORT: await freePort(),
      WORKER_MEMBERSHIP_PORT: await membershipPort(),
    };
    const metrics = `127.0.0.1:${await freePort()}`;
    const address = `127.0.0.1:${ports.FRONTEND_GRPC_PORT}`;
    const tlsEnv: Record<string, string> = opts.tls
      ? {
          TEMPORAL_TLS_FRONTEND_CERT: opts.tls.serverCert,
          TEMPORAL_TLS_FRONTEND_KEY: opts.tls.serverKey,
          TEMPORAL_TLS_CLIENT_CA_CERT: opts.tls.caCert,
          TEMPORAL_TLS_SERVER_CA_CERT: opts.tls.caCert,
          TEMPORAL_TLS_SERVER_NAME: opts.tls.serverName,
          TEMPORAL_TLS_SYSTEM_WORKER_CERT: opts.tls.clientCert,
          TEMPORAL_TLS_SYSTEM_WORKER_KEY: opts.tls.clientKey,
        }
      : {};
    const env = {
      PATH: `${bin}:${process.env.PATH ?? ''}`,
      HOME: process.env.HOME ?? dir,
      POSTGRES_SEEDS: postgres.host,
      DB_PORT: String(postgres.port),
      POSTGRES_USER: postgres.user,
      POSTGRES_PWD: postgres.password,
      DBNAME: databases.main,
      VISIBILITY_DBNAME: databases.visibility,
      SCHEMA_DIR: join(moduleSource('go.temporal.io/server', TOOLS.server.version, 'schema'), 'schema/postgresql/v12'),
      DYNAMIC_CONFIG_FILE_PATH: dynamicConfigFile(dir, opts.dynamicConfig),
      PROMETHEUS_ENDPOINT: metrics,
      LOG_LEVEL: 'warn',
      NAMESPACE: namespace,
      NAMESPACE_RETENTION: opts.retention ?? process.env.CLUSTER_NAMESPACE_RETENTION ?? '72h',
      ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
      ...tlsEnv,
    };
    await runStep('schema', env, logs, log, { signal });

    signal?.throwIfAborted();
    const serverLog = openSync(join(logs, 'temporal-server.log'), 'a');
    // The config folder as the server expects it: relative to --root.
    child = spawn(server, ['--root', '/', '--config', SERVER_CONFIG_DIR.slice(1), '--env', 'production', 'start'], {
      cwd: dir,
      env,
      stdio: ['ignore', serverLog, serverLog],
    });
    // With client authentication required, the CLI presents the system worker's certificate.
    const cliTls = opts.tls ? clientTlsEnv(opts.tls, opts.tls.clientCert, opts.tls.clientKey) : {};
    await runStep('namespace', { ...env, ...cliTls, TEMPORAL_ADDRESS: address }, logs, log, { server: child, signal });
    signal?.throwIfAborted();
    log(
      `Temporal server ${address} (namespace ${namespace}, metrics ${metrics}, log ${join(logs, 'temporal-server.log')})`,
    );
    return { address, namespace, metrics, postgres, logs, stop };
  }
}

/** The production dynamic config, or a copy in `dir` with `extra` added (JSON is YAML). */
function dynamicConfigFile(dir: string, extra: Record<string, unknown> | undefined): string {
  const production = join(SERVER_CONFIG_DIR, 'dynamicconfig.yaml');
  if (!extra) return production;
  const file = join(dir, 'dynamicconfig.yaml');
  const added = Object.entries(extra).map(([key, value]) => `${key}:\n  - value: ${JSON.stringify(value)}\n`);
  writeFileSync(file, `${readFileSync(production, 'utf8')}\n${added.join('')}`);
  return file;
}

/**
 * Runs `build` (Go builds of the server, its SQL tool, the CLI or the UI, each done once into the
 * cache); an abort kills the `go install` under way, this process's child, so the build rejects.
 */
export async function whileBuilding<T>(signal: AbortSignal | undefined, build: () => Promise<T>): Promise<T> {
  signal?.throwIfAborted();
  const onAbort = () => goInstallChildren().forEach(terminate);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const built = await build();
    signal?.throwIfAborted();
    return built;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * The `go install` processes this process started (src/temporal/go-install.ts keeps no handle),
 * with the compilers and linkers they run.
 */
function goInstallChildren(): number[] {
  const parents = new Map<number, number>();
  const goInstalls: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The fields after the command's name, which is in parentheses and may hold spaces.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(entry), ppid);
      if (ppid !== process.pid) continue;
      const [cmd, sub] = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (basename(cmd ?? '') === 'go' && sub === 'install') goInstalls.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  const tree = new Set(goInstalls);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, ppid] of parents) {
      if (tree.has(ppid) && !tree.has(pid)) {
        tree.add(pid);
        grew = true;
      }
    }
  }
  return [...tree];
}

/**
 * A free port that the server's cluster_membership table can hold (a smallint: below 32768,
 * where the kernel's ephemeral ports, which freePort gives, do not reach).
 */
async function membershipPort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise<boolean>((r) => {
      const srv = createServer();
      srv.once('error', () => r(false));
      srv.listen(port, '127.0.0.1', () => srv.close(() => r(true)));
    });
    if (free) return port;
  }
}

function runStep(
  step: 'schema' | 'namespace',
  env: Record<string, string>,
  logs: string,
  log: (line: string) => void,
  opts: { server?: ChildProcess; signal?: AbortSignal } = {},
): Promise<void> {
  const { server, signal } = opts;
  signal?.throwIfAborted();
  const out = openSync(join(logs, `setup-${step}.log`), 'a');
  log(`deploy/temporal/setup.sh ${step}…`);
  return new Promise((done, fail) => {
    // A process group of its own, so that an abort stops the tools the script runs too.
    const child = spawn('sh', [SETUP_SCRIPT, step], { env, stdio: ['ignore', out, out], detached: true });
    const kill = () => terminate(-child.pid!);
    const onServerExit = () => (
      kill(),
      fail(new Error(`the Temporal server exited during setup; see ${join(logs, 'temporal-server.log')}`))
    );
    const onAbort = () => (kill(), fail(signal!.reason));
    server?.once('exit', onServerExit);
    signal?.addEventListener('abort', onAbort, { once: true });
    child.on('exit', (code) => {
      server?.off('exit', onServerExit);
      signal?.removeEventListener('abort', onAbort);
      if (code === 0) done();
      else
        fail(
          new Error(`deploy/temporal/setup.sh ${step} failed (exit ${code}); see ${join(logs, `setup-${step}.log`)}`),
        );
    });
  });
}
