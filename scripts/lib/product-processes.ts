import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SANDBOX_CREDENTIALS } from '../../src/config.js';
import { freePort } from '../../src/temporal/ports.js';
import { fetchToken } from '../../src/temporal/service-token.js';
import { checkoutBuildId } from '../../worker/build-id.js';
import { answers, pollUntil, stopChild, stopOnFailure } from './child.js';
import { goTool, moduleSource, TOOLS } from './go-tools.js';
import { ensurePrometheus, startPrometheus } from './prometheus.js';
import { type SignIn, signInConfig, temporalServiceEnv } from './sign-in.js';
import { makeCertificates } from './tls.js';
import { startTlsFront, type TlsFront } from './tls-front.js';
import { describeTemporal, startTemporalCluster, type TemporalCluster, whileBuilding } from './temporal-cluster.js';

// The product's processes around a Temporal cluster, each an OS process in a working folder of
// its own so that nothing is shared by accident: the sandbox, two workers, two ingress replicas
// (production puts a load balancer in front of them), the codec server, the Temporal Web UI built
// from its Go module with the configuration file of its image, and Prometheus scraping them all.
// Operators sign in to the Web UI at the stand-in identity provider (src/stand-in-idp/), started
// first, since the Temporal server and the UI read its keys and discovery document at start.
// Temporal authorizes: every process reaches its frontends over TLS with a token, the services'
// by client credentials, the UI's the signed-in user's.

/** How a process was started: enough to start it again the same way (a test restarts a killed worker). */
export interface ProcessSpec {
  name: string;
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  log: string;
  /** A line of its output that says it is ready. */
  ready?: string;
}

export interface RunningProcess {
  spec: ProcessSpec;
  child: ChildProcess;
}

export interface ProductCluster {
  sandboxUrl: string;
  ingressUrls: string[];
  /** Each replica's operations port (INGRESS_OPS_PORT): /health and /metrics. */
  ingressOpsUrls: string[];
  workerMetrics: string[];
  workerHealth: string[];
  codecUrl: string;
  /** The codec server as the browser reaches it: https through a TLS front (tls-front.ts), since the UI passes tokens to https only. */
  codecBrowserUrl: string;
  /** CODEC_SERVER_TOKEN of this cluster's codec server: the CLI's --codec-auth and services' (users sign in instead). */
  codecToken: string;
  /** The codec server's operations port (CODEC_SERVER_OPS_PORT): /metrics. */
  codecOpsUrl: string;
  uiUrl: string;
  /** The stand-in identity provider: its issuer, test users (with passwords) and clients (sign-in.ts). */
  signIn: SignIn;
  prometheusUrl: string;
  taskQueue: string;
  payloadKey: string;
  secretKey: string;
  claimsDir: string;
  /** CLAIM_ENCRYPTION_KEY of the workers: a backend client that hands in claims needs the same. */
  claimKey: string;
  processes: RunningProcess[];
  /** The environment of a worker of this cluster (to start more, or one again). */
  workerEnv: Record<string, string>;
  stop(): Promise<void>;
}

const TSX = import.meta.resolve('tsx');

/**
 * Starts `spec` and resolves once its ready line shows (or at once without one). Not ready in
 * time, or aborted by `signal` meanwhile, it is stopped before the promise rejects.
 */
export async function startProcess(
  spec: ProcessSpec,
  timeoutMs = 120_000,
  signal?: AbortSignal,
): Promise<RunningProcess> {
  signal?.throwIfAborted();
  mkdirSync(spec.cwd, { recursive: true });
  const out = openSync(spec.log, 'a');
  const child = spawn(spec.command, spec.args, { cwd: spec.cwd, env: spec.env, stdio: ['ignore', out, out] });
  const { ready } = spec;
  const output = () => readFileSync(spec.log, 'utf8');
  if (ready)
    await stopOnFailure(
      () => stopChild(child),
      () =>
        pollUntil(() => output().includes(ready), {
          timeoutMs,
          everyMs: 100,
          signal,
          failed: () =>
            child.exitCode === null
              ? undefined
              : new Error(
                  `${spec.name} exited with ${child.exitCode} before it was ready; see ${spec.log}:\n${output().slice(-2000)}`,
                ),
          timedOut: () => new Error(`${spec.name} was not ready within ${timeoutMs / 1000} s; see ${spec.log}`),
        }),
    );
  return { spec, child };
}

export const stopProcess = (p: RunningProcess, signal?: NodeJS.Signals) => stopChild(p.child, signal);

/** A node process of the product's, from source, in `dir`/<name> with its log in `dir`/logs. */
function node(dir: string, name: string, entry: string, ready: string, env: Record<string, string>): ProcessSpec {
  const cwd = join(dir, name);
  return {
    name,
    command: process.execPath,
    args: ['--import', TSX, resolve(entry)],
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: cwd, ...env },
    log: join(dir, 'logs', `${name}.log`),
    ready,
  };
}

/**
 * The UI's configuration folder, as its image holds it: config/docker.yaml of its module, as is.
 * That file has no `host` key (nor a variable for one), and without one the UI listens on every
 * interface; the loader reads base.yaml first and docker.yaml over it, so a base.yaml holding
 * only the host keeps it on loopback, as compose publishes it.
 */
function uiConfig(root: string): string {
  const config = join(root, 'config');
  mkdirSync(config, { recursive: true });
  const source = moduleSource('github.com/temporalio/ui-server/v2', TOOLS.ui.version, 'config');
  copyFileSync(join(source, 'config', 'docker.yaml'), join(config, 'docker.yaml'));
  writeFileSync(join(config, 'base.yaml'), 'host: 127.0.0.1\n');
  return root;
}

type TopologyOptions = Pick<Parameters<typeof startTemporalCluster>[0], 'dir' | 'log' | 'signal' | 'dynamicConfig'>;

/** Where the Web UI listens and who signs in to it: chosen before the Temporal cluster starts. */
interface SignInPlan {
  uiPort: number;
  signIn: SignIn;
}

/** The product's processes around `temporal`; an abort stops the one starting and those started, and rejects. */
async function startProduct(
  temporal: TemporalCluster,
  { uiPort, signIn }: SignInPlan,
  { dir, log, signal }: TopologyOptions,
): Promise<ProductCluster> {
  mkdirSync(join(dir, 'logs'), { recursive: true });
  const running: RunningProcess[] = [];
  let front: TlsFront | undefined;
  const stopAll = async () => {
    for (const p of [...running].reverse()) await stopProcess(p);
    await front?.close();
  };
  // Each process of the start-up stopped by an abort while it starts.
  const start = async (spec: ProcessSpec) => void running.push(await startProcess(spec, undefined, signal));
  const launch = (name: string, entry: string, ready: string, env: Record<string, string>) =>
    start(node(dir, name, entry, ready, env));
  return stopOnFailure(stopAll, async () => {
    const payloadKey = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64');
    const taskQueue = 'payflows';
    const claimsDir = join(dir, 'claims');
    // Made now, owner-only, so that a client and the workers find one store from the start.
    mkdirSync(claimsDir, { recursive: true, mode: 0o700 });
    const ports = () => Promise.all([freePort(), freePort()]);
    const [
      [sandboxPort, codecPort],
      [promPort, codecOpsPort],
      [codecFrontPort],
      ingressPorts,
      opsPorts,
      metricsPorts,
      healthPorts,
    ] = await Promise.all([ports(), ports(), ports(), ports(), ports(), ports(), ports()]);
    const local = (port: number) => `127.0.0.1:${port}`;
    const sandboxUrl = `http://${local(sandboxPort)}`;
    const ingressUrls = ingressPorts.map((port) => `http://${local(port)}`);
    const ingressOpsUrls = opsPorts.map((port) => `http://${local(port)}`);
    const workerMetrics = metricsPorts.map(local);
    const temporalEnv = {
      TEMPORAL_ADDRESS: temporal.address,
      ...temporalServiceEnv(temporal, signIn),
      TEMPORAL_NAMESPACE: temporal.namespace,
      TEMPORAL_TASK_QUEUE: taskQueue,
      PAYLOAD_ENCRYPTION_KEY: payloadKey,
      LOG_LEVEL: 'info',
    };
    const provider = {
      PROVIDER_BASE_URL: sandboxUrl,
      PROVIDER_API_KEY: SANDBOX_CREDENTIALS.apiKey,
      PROVIDER_SECRET_KEY: SANDBOX_CREDENTIALS.secretKey,
      PROVIDER_ACCOUNT_ID: SANDBOX_CREDENTIALS.accountId,
    };

    await launch('sandbox', 'src/sandbox/main.ts', 'sandbox provider listening', {
      SANDBOX_PORT: String(sandboxPort),
      SANDBOX_STATE_FILE: join(dir, 'sandbox', 'state.json'),
      LOG_LEVEL: 'info',
    });
    for (const [i, port] of ingressPorts.entries()) {
      await launch(`ingress-${i + 1}`, 'src/ingress/main.ts', 'ingress listening', {
        ...temporalEnv,
        PROVIDER_SECRET_KEY: SANDBOX_CREDENTIALS.secretKey,
        INGRESS_PORT: String(port),
        INGRESS_OPS_PORT: String(opsPorts[i]),
      });
    }
    // The provider calls one address back; a load balancer spreads it over the replicas.
    const claimKey = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64');
    const workerEnv = {
      ...temporalEnv,
      ...provider,
      INGRESS_PUBLIC_URL: ingressUrls[0]!,
      CLAIM_STORE_DIR: claimsDir,
      CLAIM_ENCRYPTION_KEY: claimKey,
      WORKER_SHUTDOWN_GRACE: '10s',
      // Workers from source off the embedded server need the id said; this new cluster's first
      // version makes itself current (docs/deploying.md).
      WORKER_BUILD_ID: checkoutBuildId() ?? 'payflows-source',
      WORKER_VERSION_BOOTSTRAP: 'on',
    };
    for (const [i, metrics] of metricsPorts.entries()) {
      await launch(`worker-${i + 1}`, 'worker/main.ts', '"msg":"worker polling"', {
        ...workerEnv,
        WORKER_METRICS_PORT: String(metrics),
        WORKER_HEALTH_PORT: String(healthPorts[i]),
      });
    }
    const uiUrl = `http://${local(uiPort)}`;
    const codecUrl = `http://${local(codecPort)}`;
    const certificates = makeCertificates(join(dir, 'codec-tls'));
    front = await startTlsFront({
      port: codecFrontPort,
      target: codecPort,
      cert: certificates.serverCert,
      key: certificates.serverKey,
    });
    // Not the embedded stack: the codec server wants a credential. Users signed in to the Web UI
    // decode by their role (the UI passes their access token); the token is the CLI's and services'.
    const codecToken = randomBytes(24).toString('hex');
    await launch('codec-server', 'src/temporal/codec-server-main.ts', 'codec server listening', {
      PAYLOAD_ENCRYPTION_KEY: payloadKey,
      TEMPORAL_ADDRESS: temporal.address,
      // The namespace whose payloads it serves: a call naming another is refused.
      TEMPORAL_NAMESPACE: temporal.namespace,
      CODEC_SERVER_PORT: String(codecPort),
      CODEC_SERVER_OPS_PORT: String(codecOpsPort),
      CODEC_SERVER_ALLOWED_ORIGINS: uiUrl,
      CODEC_SERVER_ALLOWED_HOSTS: [codecPort, codecFrontPort].map(local).join(','),
      CODEC_SERVER_TOKEN: codecToken,
      CODEC_SERVER_OIDC_ISSUER: signIn.issuer,
      CODEC_SERVER_OIDC_AUDIENCE: signIn.audience,
      // POST /claims stores where the workers read (docs/other-languages.md).
      CLAIM_STORE_DIR: claimsDir,
      CLAIM_ENCRYPTION_KEY: claimKey,
      LOG_LEVEL: 'info',
    });

    // The Web UI with the configuration file its image uses, on loopback (uiConfig).
    const ui = await whileBuilding(signal, () => goTool(TOOLS.ui, log));
    const uiSpec: ProcessSpec = {
      name: 'temporal-ui',
      command: ui,
      args: ['--root', uiConfig(join(dir, 'temporal-ui')), '--config', 'config', '--env', 'docker', 'start'],
      cwd: join(dir, 'temporal-ui'),
      env: {
        PATH: process.env.PATH ?? '',
        TEMPORAL_ADDRESS: temporal.address,
        // The frontend's certificate verified on the cluster's CA; the UI presents the user's token.
        ...(temporal.tls && {
          TEMPORAL_TLS_CA: temporal.tls.caCert,
          TEMPORAL_TLS_SERVER_NAME: temporal.tls.serverName,
          TEMPORAL_TLS_ENABLE_HOST_VERIFICATION: 'true',
        }),
        TEMPORAL_UI_PORT: String(uiPort),
        TEMPORAL_CODEC_ENDPOINT: front.url,
        TEMPORAL_CORS_ORIGINS: uiUrl,
        TEMPORAL_DEFAULT_NAMESPACE: temporal.namespace,
        // Sign-in at the identity provider; the UI forwards the user's access token (a JWT for
        // the audience) to Temporal and, with passAccessToken, to the codec server.
        TEMPORAL_AUTH_ENABLED: 'true',
        TEMPORAL_AUTH_PROVIDER_URL: signIn.issuer,
        TEMPORAL_AUTH_CLIENT_ID: signIn.ui.clientId,
        TEMPORAL_AUTH_CLIENT_SECRET: signIn.ui.clientSecret,
        TEMPORAL_AUTH_CALLBACK_URL: signIn.ui.callbackUrl,
        TEMPORAL_AUTH_SCOPES: 'openid,profile,email',
        TEMPORAL_CODEC_PASS_ACCESS_TOKEN: 'true',
      },
      log: join(dir, 'logs', 'temporal-ui.log'),
    };
    await start(uiSpec);
    await pollUntil(() => answers(`${uiUrl}/`, (status) => status < 500), {
      timeoutMs: 60_000,
      everyMs: 250,
      signal,
      timedOut: () => new Error(`temporal-ui did not answer at ${uiUrl}/ within 60 s; see ${uiSpec.log}`),
    });

    // On a machine that has never run it, Debian's package first (else its spawn fails unhandled).
    ensurePrometheus(log);
    const prometheusDir = join(dir, 'prometheus');
    const prometheus = await startPrometheus({
      dir: prometheusDir,
      port: promPort,
      workers: workerMetrics,
      ingresses: opsPorts.map(local),
      codecServers: [local(codecOpsPort)],
      temporal: temporal.metrics,
      intervalSeconds: 2,
      signal,
    });
    running.push({
      spec: {
        name: 'prometheus',
        command: 'prometheus',
        args: [],
        cwd: prometheusDir,
        env: {},
        log: join(prometheusDir, 'prometheus.log'),
      },
      child: prometheus.process,
    });

    return {
      sandboxUrl,
      ingressUrls,
      ingressOpsUrls,
      workerMetrics,
      workerHealth: healthPorts.map((port) => `http://${local(port)}/health`),
      codecUrl,
      codecBrowserUrl: front.url,
      codecToken,
      codecOpsUrl: `http://${local(codecOpsPort)}`,
      uiUrl,
      signIn,
      prometheusUrl: prometheus.url,
      taskQueue,
      payloadKey,
      secretKey: SANDBOX_CREDENTIALS.secretKey,
      claimsDir,
      claimKey,
      processes: running,
      workerEnv,
      stop: stopAll,
    };
  });
}

/**
 * What a run of the topology (`npm run cluster`, `npm run test:cluster`) starts with: its lines
 * marked `[name]`, a new temporary folder, and a signal that the first SIGINT or SIGTERM aborts (a
 * start-up under way then stops what it has started), set first, since the start-up takes minutes.
 */
export function topologyRun(name: string) {
  const say = (line: string) => console.log(`[${name}] ${line}`);
  const abort = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    if (abort.signal.aborted) return say(`${signal}: already stopping`);
    say(`${signal}: stopping…`);
    abort.abort(new Error(`stopped by ${signal}`));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const dir = mkdtempSync(join(tmpdir(), `payflows-${name.replace(':', '-')}-`));
  return { say, signal: abort.signal, dir };
}

/**
 * `npm run cluster`'s topology, as it and `npm run test:cluster` start it: the Temporal cluster on
 * PostgreSQL, then the product's processes around it. A failed or aborted start stops what started.
 */
export async function startClusterTopology(
  opts: TopologyOptions,
): Promise<{ temporal: TemporalCluster; product: ProductCluster; stop(): Promise<void> }> {
  const { dir, signal } = opts;
  mkdirSync(join(dir, 'logs'), { recursive: true });
  const namespace = 'default';
  const [uiPort, idpPort] = await Promise.all([freePort(), freePort()]);
  const signIn = signInConfig({ dir, port: idpPort, namespace, uiUrl: `http://127.0.0.1:${uiPort}` });
  const idpSpec = node(dir, 'stand-in-idp', 'src/stand-in-idp/main.ts', 'stand-in identity provider listening', {
    LOG_LEVEL: 'info',
  });
  const idp = await startProcess({ ...idpSpec, args: [...idpSpec.args, signIn.configFile] }, undefined, signal);
  const stopIdp = () => stopProcess(idp);
  // Temporal authorizes on the provider's keys, its frontends with TLS (this run's own CA); the
  // namespace is set up with an admin's token.
  const temporal = await stopOnFailure(stopIdp, async () =>
    startTemporalCluster({
      ...opts,
      namespace,
      tls: makeCertificates(join(dir, 'temporal-tls')),
      authorization: {
        jwksUrl: signIn.jwksUrl,
        audience: signIn.audience,
        adminToken: (
          await fetchToken({
            tokenUrl: signIn.tokenUrl,
            clientId: signIn.admin.clientId,
            clientSecret: signIn.admin.clientSecret,
          })
        ).token,
      },
    }),
  );
  const product = await stopOnFailure(
    async () => (await temporal.stop(), await stopIdp()),
    () => startProduct(temporal, { uiPort, signIn }, opts),
  );
  // Listed with the product's processes, and stopped last of them.
  product.processes.unshift(idp);
  // The product's processes, then the server, then PostgreSQL.
  return { temporal, product, stop: async () => (await product.stop(), await temporal.stop()) };
}

/**
 * Writes `dir`/cluster.json, owner-only (it holds the keys): the topology as the cluster's tests
 * read it (TEST_CLUSTER, test/helpers/cluster.ts). Answers its path.
 */
export function writeTopologyFile(
  dir: string,
  { temporal, product }: { temporal: TemporalCluster; product: ProductCluster },
) {
  const file = join(dir, 'cluster.json');
  const description = {
    temporal: describeTemporal(temporal),
    ...product,
    processes: product.processes.map((p) => ({ ...p.spec, pid: p.child.pid })),
    stop: undefined,
  };
  writeFileSync(file, JSON.stringify(description, null, 2), { mode: 0o600 });
  return file;
}
