import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { findTemporalCli } from '../../src/temporal/cli.js';
import { freePort, portIn } from '../../src/temporal/ports.js';
import { accepts, pollUntil, stopChild, stopOnFailure, terminate } from './child.js';
import { buildLocalModule, LOCAL_MODULES, moduleSource, SERVER_VERSION } from './go-tools.js';
import { type RunningLoadBalancer, startLoadBalancer } from './load-balancer.js';
import { ensurePostgres, type RunningPostgres, startPostgres } from './postgres.js';
import { ControlError, type ControlEndpoint, serveTemporalControl, unknownService } from './temporal-control.js';
import { clientTlsEnv, type FrontendTls } from './tls.js';

// A Temporal cluster on PostgreSQL, on this machine, configured by the files that
// docker-compose.yml ships: deploy/temporal/production.yaml for the server,
// deploy/temporal/setup.sh for the schemas, the visibility indexes, the namespace and the search
// attributes, and deploy/haproxy/haproxy.cfg for the load balancer in front of the frontends.

export const SERVER_CONFIG_DIR = resolve('deploy/temporal');
export const SETUP_SCRIPT = resolve('deploy/temporal/setup.sh');

/**
 * `services`: each of the server's services an OS process of its own (`start --service=<name>`),
 * as many as SERVICE_COUNTS says, behind the load balancer; `single`: one process with every
 * service, its frontend reached directly.
 */
export type TemporalTopology = 'single' | 'services';
export const DEFAULT_TOPOLOGY: TemporalTopology = 'services';

export type TemporalRole = 'frontend' | 'history' | 'matching' | 'worker';
/** The processes of each service in the `services` topology. */
export const SERVICE_COUNTS: Record<TemporalRole, number> = { history: 2, matching: 2, frontend: 2, worker: 1 };

/** One process of the server, as the cluster's tests see it. */
export interface TemporalService {
  /** `history-1` and the like; `server` in the single topology. */
  name: string;
  /** The service it runs; `all` in the single topology. */
  service: TemporalRole | 'internal-frontend' | 'all';
  /** Null while it is down (killed, not started again). */
  pid: number | null;
  grpcPort: number;
  membershipPort: number;
  /** A frontend's HTTP API. */
  httpPort?: number;
  /** Its Prometheus endpoint, host:port. */
  metrics: string;
  log: string;
}

export interface TemporalCluster {
  topology: TemporalTopology;
  /** Where clients connect, host:port: the load balancer (the frontend itself in the single topology). */
  address: string;
  namespace: string;
  /** Every process's Prometheus endpoint, host:port. */
  metrics: string[];
  postgres: PostgresServer;
  /** The names of its two databases on that server. */
  databases: { main: string; visibility: string };
  /** The load balancer's process (the services topology). */
  loadBalancer?: { address: string; pid: number; log: string };
  /** How clients verify the frontend's certificate, when it serves TLS. */
  tls?: { caCert: string; serverName: string };
  /** Whose tokens it takes, when it authorizes. */
  authorization?: { jwksUrl: string; audience: string };
  /** Files where each process writes its output. */
  logs: string;
  services(): TemporalService[];
  /** SIGKILL to one process by name; resolves once it has exited. */
  kill(name: string): Promise<void>;
  /** Starts a process that is down again, with the same command, environment and ports; resolves once it listens. */
  start(name: string): Promise<void>;
  /** Stops PostgreSQL and starts it again on the same data folder and port (not a borrowed one). */
  restartPostgres(): Promise<void>;
  /** The loopback endpoint that offers kill, start and restartPostgres to other processes (lib/temporal-control.ts). */
  control: { url: string; token: string };
  stop(): Promise<void>;
}

/** A PostgreSQL server as the cluster uses it; a borrowed one need not offer a restart. */
export type PostgresServer = Omit<RunningPostgres, 'restart'> & Partial<Pick<RunningPostgres, 'restart'>>;

/** One server process: how it starts, so that it can be started again the same way. */
interface ServerProcess {
  info: Omit<TemporalService, 'pid'>;
  args: string[];
  env: Record<string, string>;
  child?: ChildProcess;
  /** Killed on purpose: its exit is not reported as a crash. */
  killed?: boolean;
}

export async function startTemporalCluster(opts: {
  dir: string;
  log: (line: string) => void;
  /** `services` unless said (DEFAULT_TOPOLOGY). */
  topology?: TemporalTopology;
  namespace?: string;
  retention?: string;
  /** An existing PostgreSQL (another cluster's), with databases of this cluster's own names. */
  postgres?: PostgresServer;
  databases?: { main: string; visibility: string };
  tls?: FrontendTls;
  /**
   * The server authorizes (deploy/temporal/server's build, deploy/temporal/production.yaml's
   * authorization): tokens verified on the provider's published keys (`jwksUrl`) for `audience`;
   * the namespace is set up with `adminToken`. Tokens need TLS (`tls`); callers authenticate by
   * their token, so the frontends ask no client certificate. The server's system worker calls an
   * internal frontend: a process of its own in the services topology.
   */
  authorization?: { jwksUrl: string; audience: string; adminToken: string };
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
  const topology = opts.topology ?? DEFAULT_TOPOLOGY;
  if (topology !== 'single' && topology !== 'services')
    throw new Error(`startTemporalCluster: topology is 'single' or 'services', not ${JSON.stringify(topology)}`);
  if (opts.authorization && !opts.tls)
    throw new Error('startTemporalCluster: authorization needs tls (tokens never travel in clear); pass tls too');
  const started = Date.now();
  const logs = join(dir, 'logs');
  mkdirSync(logs, { recursive: true });
  // One build at a time: two Go builds on 2 cores only slow each other down.
  const [server, sqlTool, cli] = await whileBuilding(
    signal,
    async () =>
      [
        await buildLocalModule(LOCAL_MODULES.server, log),
        await buildLocalModule(LOCAL_MODULES.sqlTool, log),
        await findTemporalCli({ log }),
      ] as const,
  );
  if (cli.kind !== 'binary') throw new Error(`the Temporal CLI is needed for the cluster's setup: ${cli.reason}`);
  const bin = join(dir, 'bin');
  mkdirSync(bin, { recursive: true });
  symlinkSync(sqlTool, join(bin, 'temporal-sql-tool'));
  symlinkSync(cli.path, join(bin, 'temporal'));

  const ownsPostgres = opts.postgres === undefined;
  // The postgres user must reach its data folder: under the cluster's folder in the system's
  // temporary directory, never under a 0700 home.
  const postgres: PostgresServer =
    opts.postgres ??
    (await startPostgres({
      dataDir: join(dir, 'postgresql'),
      port: await freePort(),
      user: 'temporal',
      password: 'temporal',
      log,
      signal,
    }));
  const processes: ServerProcess[] = [];
  let lb: RunningLoadBalancer | undefined;
  let control: ControlEndpoint | undefined;
  let stopping = false;
  // Everything after PostgreSQL stops it again on a failure or an abort: the load balancer, the
  // server's processes, then PostgreSQL.
  const stop = async () => {
    stopping = true;
    await control?.close();
    await lb?.stop();
    await Promise.all(processes.map((p) => p.child && stopChild(p.child, 'SIGTERM', 15_000)));
    if (ownsPostgres) await postgres.stop();
  };
  log(`PostgreSQL ${postgres.host}:${postgres.port} (data in ${postgres.dataDir})`);
  return stopOnFailure(stop, startServer);

  /** Spawns `p` (again), its output appended to its log; an exit nobody asked for is said. */
  function spawnProcess(p: ServerProcess): void {
    const out = openSync(p.info.log, 'a');
    // The config folder as the server expects it: relative to --root.
    const child = spawn(server, p.args, { cwd: dir, env: p.env, stdio: ['ignore', out, out] });
    closeSync(out);
    p.child = child;
    p.killed = false;
    child.once('exit', (code, sig) => {
      if (!stopping && !p.killed) log(`Temporal ${p.info.name} exited (${sig ?? `code ${code}`}); see ${p.info.log}`);
    });
  }

  function running(p: ServerProcess): boolean {
    return p.child !== undefined && p.child.exitCode === null && p.child.signalCode === null;
  }

  /** Resolves once `p` listens on its ports; rejects if it exits first or `timeoutMs` passes. */
  function listening(p: ServerProcess, timeoutMs = 120_000): Promise<void> {
    // The worker service serves no gRPC: its membership port (ringpop) says it has joined.
    const ports =
      p.info.service === 'worker'
        ? [p.info.membershipPort]
        : [p.info.grpcPort, ...(p.info.httpPort ? [p.info.httpPort] : [])];
    return pollUntil(async () => (await Promise.all(ports.map(accepts))).every(Boolean), {
      timeoutMs,
      everyMs: 100,
      signal,
      failed: () =>
        running(p) ? undefined : new Error(`Temporal ${p.info.name} exited while starting; see ${p.info.log}`),
      timedOut: () =>
        new Error(
          `Temporal ${p.info.name} did not listen on ${ports.join(', ')} within ${timeoutMs / 1000} s; see ${p.info.log}`,
        ),
    });
  }

  function named(name: string): ServerProcess {
    const p = processes.find((q) => q.info.name === name);
    if (!p)
      throw unknownService(
        name,
        processes.map((q) => q.info.name),
      );
    return p;
  }

  async function startServer(): Promise<TemporalCluster> {
    const databases = opts.databases ?? { main: 'temporal', visibility: 'temporal_visibility' };
    const namespace = opts.namespace ?? 'default';
    const tlsEnv: Record<string, string> = opts.tls
      ? {
          TEMPORAL_TLS_FRONTEND_CERT: opts.tls.serverCert,
          TEMPORAL_TLS_FRONTEND_KEY: opts.tls.serverKey,
          TEMPORAL_TLS_CLIENT_CA_CERT: opts.tls.caCert,
          TEMPORAL_TLS_SERVER_CA_CERT: opts.tls.caCert,
          TEMPORAL_TLS_SERVER_NAME: opts.tls.serverName,
          TEMPORAL_TLS_SYSTEM_WORKER_CERT: opts.tls.clientCert,
          TEMPORAL_TLS_SYSTEM_WORKER_KEY: opts.tls.clientKey,
          // Callers of an authorizing server present a token, not a certificate.
          ...(opts.authorization ? { TEMPORAL_TLS_REQUIRE_CLIENT_AUTH: 'false' } : {}),
        }
      : {};
    // The internal frontend's ports, known to every process: the worker service reaches it through
    // membership, and its HTTP port from the configuration.
    const internalFrontend = opts.authorization
      ? { grpc: await freePort(), membership: await membershipPort(), http: await freePort() }
      : undefined;
    const internalFrontendEnv: Record<string, string> = internalFrontend
      ? {
          INTERNAL_FRONTEND_GRPC_PORT: String(internalFrontend.grpc),
          INTERNAL_FRONTEND_MEMBERSHIP_PORT: String(internalFrontend.membership),
          INTERNAL_FRONTEND_HTTP_PORT: String(internalFrontend.http),
        }
      : {};
    // Each process's own ports; in the single topology, one process with every service's.
    const plan =
      topology === 'single'
        ? [{ name: 'server', service: 'all' as const }]
        : (Object.entries(SERVICE_COUNTS) as Array<[TemporalRole, number]>).flatMap(([service, count]) =>
            Array.from({ length: count }, (_, i) => ({ name: `${service}-${i + 1}`, service })),
          );
    for (const { name, service } of plan) {
      const roles: TemporalRole[] = service === 'all' ? ['frontend', 'history', 'matching', 'worker'] : [service];
      const ports = Object.fromEntries(
        await Promise.all(
          roles.map(async (role) => [role, { grpc: await freePort(), membership: await membershipPort() }] as const),
        ),
      ) as Partial<Record<TemporalRole, { grpc: number; membership: number }>>;
      const own = ports[roles[0]!]!;
      const httpPort = roles.includes('frontend') ? await freePort() : undefined;
      processes.push({
        info: {
          name,
          service,
          grpcPort: own.grpc,
          membershipPort: own.membership,
          ...(httpPort ? { httpPort } : {}),
          metrics: `127.0.0.1:${await freePort()}`,
          log: join(logs, `temporal-${name}.log`),
        },
        args: [
          ...START,
          ...(service !== 'all' ? [`--service=${service}`] : opts.authorization ? withInternalFrontend : []),
        ],
        env: Object.fromEntries(
          Object.entries(ports).flatMap(([role, p]) => [
            [`${role.toUpperCase()}_GRPC_PORT`, String(p.grpc)],
            [`${role.toUpperCase()}_MEMBERSHIP_PORT`, String(p.membership)],
          ]),
        ),
      });
    }
    const frontends = processes.filter((p) => p.info.httpPort !== undefined);
    // The internal frontend as a process of its own (the single topology's process runs it beside
    // the others); never behind the load balancer.
    if (internalFrontend && topology === 'services')
      processes.push({
        info: {
          name: 'internal-frontend-1',
          service: 'internal-frontend',
          grpcPort: internalFrontend.grpc,
          membershipPort: internalFrontend.membership,
          httpPort: internalFrontend.http,
          metrics: `127.0.0.1:${await freePort()}`,
          log: join(logs, 'temporal-internal-frontend-1.log'),
        },
        args: [...START, '--service=internal-frontend'],
        env: {},
      });
    const authorizationEnv: Record<string, string> = opts.authorization
      ? { TEMPORAL_AUTH_JWKS_URL: opts.authorization.jwksUrl, TEMPORAL_AUTH_AUDIENCE: opts.authorization.audience }
      : {};
    const lbPort = topology === 'services' ? await freePort() : undefined;
    const address = `127.0.0.1:${lbPort ?? frontends[0]!.info.grpcPort}`;
    const env = {
      PATH: `${bin}:${process.env.PATH ?? ''}`,
      HOME: process.env.HOME ?? dir,
      POSTGRES_SEEDS: postgres.host,
      DB_PORT: String(postgres.port),
      POSTGRES_USER: postgres.user,
      POSTGRES_PWD: postgres.password,
      DBNAME: databases.main,
      VISIBILITY_DBNAME: databases.visibility,
      SCHEMA_DIR: join(moduleSource('go.temporal.io/server', SERVER_VERSION, 'schema'), 'schema/postgresql/v12'),
      DYNAMIC_CONFIG_FILE_PATH: dynamicConfigFile(dir, opts.dynamicConfig),
      LOG_LEVEL: 'warn',
      NAMESPACE: namespace,
      NAMESPACE_RETENTION: opts.retention ?? process.env.CLUSTER_NAMESPACE_RETENTION ?? '72h',
      // The cluster's address in its metadata: where clients reach it.
      TEMPORAL_CLUSTER_ADDRESS: address,
      TEMPORAL_CLUSTER_HTTP_ADDRESS: `127.0.0.1:${frontends[0]!.info.httpPort}`,
      // A frontend's HTTP API, for the processes that are not one (the worker service's HTTP client).
      FRONTEND_HTTP_PORT: String(frontends[0]!.info.httpPort),
      ...tlsEnv,
      ...authorizationEnv,
      ...internalFrontendEnv,
    };
    for (const p of processes)
      p.env = {
        ...env,
        ...p.env,
        ...(p.info.service === 'frontend' || p.info.service === 'all'
          ? { FRONTEND_HTTP_PORT: String(p.info.httpPort) }
          : {}),
        PROMETHEUS_ENDPOINT: p.info.metrics,
      };
    await runStep('schema', env, logs, log, { signal });
    await runStep('indexes', { ...env, PATH: `${ensurePostgres(log)}:${env.PATH}` }, logs, log, { signal });

    // The first process alone, since it writes the cluster's metadata on a new database (two
    // writing it at once fail on its version); then every other at once: they find each other
    // through PostgreSQL (cluster_membership) and wait for the ones they need.
    signal?.throwIfAborted();
    const [first, ...others] = processes;
    spawnProcess(first!);
    await listening(first!);
    for (const p of others) spawnProcess(p);
    await Promise.all(others.map((p) => listening(p)));
    if (lbPort !== undefined) {
      lb = await startLoadBalancer({
        port: lbPort,
        frontends: frontends.map((p) => `127.0.0.1:${p.info.grpcPort}`),
        tls: opts.tls !== undefined,
        log: join(logs, 'haproxy.log'),
        say: log,
        signal,
      });
    }
    // With client authentication required, the CLI presents the system worker's certificate.
    const cliTls = opts.tls ? clientTlsEnv(opts.tls, opts.tls.clientCert, opts.tls.clientKey) : {};
    const cliToken: Record<string, string> = opts.authorization
      ? { TEMPORAL_API_KEY: opts.authorization.adminToken }
      : {};
    await runStep('namespace', { ...env, ...cliTls, ...cliToken, TEMPORAL_ADDRESS: address }, logs, log, {
      servers: processes.map((p) => p.child!),
      signal,
    });
    signal?.throwIfAborted();

    const services = (): TemporalService[] =>
      processes.map((p) => ({ ...p.info, pid: running(p) ? p.child!.pid! : null }));
    const controls = {
      services,
      async kill(name: string) {
        const p = named(name);
        if (!running(p))
          throw new ControlError(409, `Temporal ${name} is down already; start it with POST /temporal/${name}/start`);
        p.killed = true;
        const exited = new Promise((r) => p.child!.once('exit', r));
        p.child!.kill('SIGKILL');
        await exited;
      },
      async start(name: string) {
        const p = named(name);
        if (running(p)) throw new ControlError(409, `Temporal ${name} is running (pid ${p.child!.pid}); kill it first`);
        spawnProcess(p);
        await listening(p);
      },
      async restartPostgres() {
        if (!postgres.restart)
          throw new ControlError(
            409,
            `this cluster borrowed PostgreSQL ${postgres.host}:${postgres.port}; restart it where it was started`,
          );
        await postgres.restart();
      },
    };
    control = await serveTemporalControl(controls);
    for (const s of services())
      log(
        `Temporal ${s.name.padEnd(10)} ${s.service.padEnd(8)} pid ${s.pid}, gRPC ${s.grpcPort}, membership ${s.membershipPort}${s.httpPort ? `, HTTP ${s.httpPort}` : ''}, metrics ${s.metrics}`,
      );
    if (lb)
      log(`load balancer      ${lb.address} (HAProxy, pid ${lb.child.pid}, in front of ${frontends.length} frontends)`);
    log(
      `Temporal ready in ${((Date.now() - started) / 1000).toFixed(1)} s at ${address} (namespace ${namespace}, logs in ${logs})`,
    );
    return {
      topology,
      address,
      namespace,
      metrics: processes.map((p) => p.info.metrics),
      postgres,
      databases,
      ...(lb ? { loadBalancer: { address: lb.address, pid: lb.child.pid!, log: lb.log } } : {}),
      ...(opts.tls ? { tls: { caCert: opts.tls.caCert, serverName: opts.tls.serverName } } : {}),
      ...(opts.authorization
        ? { authorization: { jwksUrl: opts.authorization.jwksUrl, audience: opts.authorization.audience } }
        : {}),
      logs,
      ...controls,
      control: { url: control.url, token: control.token },
      stop,
    };
  }
}

/** The server's command, up to the services it runs: the config folder as the server expects it, relative to --root. */
const START = ['--root', '/', '--config', SERVER_CONFIG_DIR.slice(1), '--env', 'production', 'start'];

/** Every service of the server, the internal frontend of an authorizing server's system worker included. */
const withInternalFrontend = ['frontend', 'internal-frontend', 'history', 'matching', 'worker'].map(
  (s) => `--service=${s}`,
);

/** The cluster as its description file holds it for the tests (TEST_CLUSTER, test/helpers/cluster.ts). */
export function describeTemporal(t: TemporalCluster) {
  const { host, port, user, password, dataDir } = t.postgres;
  return {
    topology: t.topology,
    address: t.address,
    namespace: t.namespace,
    metrics: t.metrics,
    postgres: { host, port, user, password, dataDir },
    databases: t.databases,
    loadBalancer: t.loadBalancer,
    tls: t.tls,
    authorization: t.authorization,
    services: t.services(),
    control: t.control,
  };
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
 * A free port that the server's cluster_membership table can hold (a smallint: below 32768, where
 * the kernel's ephemeral ports do not reach, and apart from the test suites' freePort ranges,
 * scripts/lib/test-run.ts), never one handed out before: a port is free until its process binds
 * it, and the processes start together.
 */
const membershipPort = () => portIn(20_000, 32_000);

function runStep(
  step: 'schema' | 'indexes' | 'namespace',
  env: Record<string, string>,
  logs: string,
  log: (line: string) => void,
  opts: { servers?: ChildProcess[]; signal?: AbortSignal } = {},
): Promise<void> {
  const { servers = [], signal } = opts;
  signal?.throwIfAborted();
  const out = openSync(join(logs, `setup-${step}.log`), 'a');
  log(`deploy/temporal/setup.sh ${step}…`);
  return new Promise((done, fail) => {
    // A process group of its own, so that an abort stops the tools the script runs too.
    const child = spawn('sh', [SETUP_SCRIPT, step], { env, stdio: ['ignore', out, out], detached: true });
    const kill = () => terminate(-child.pid!);
    const onServerExit = () => (
      kill(),
      fail(new Error(`a Temporal server process exited during setup; see its log in ${logs}`))
    );
    const onAbort = () => (kill(), fail(signal!.reason));
    for (const server of servers) server.once('exit', onServerExit);
    signal?.addEventListener('abort', onAbort, { once: true });
    child.on('exit', (code) => {
      for (const server of servers) server.off('exit', onServerExit);
      signal?.removeEventListener('abort', onAbort);
      if (code === 0) done();
      else
        fail(
          new Error(`deploy/temporal/setup.sh ${step} failed (exit ${code}); see ${join(logs, `setup-${step}.log`)}`),
        );
    });
  });
}
