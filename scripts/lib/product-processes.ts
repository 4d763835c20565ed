import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { request } from 'undici';
import { SANDBOX_CREDENTIALS } from '../../src/config.js';
import { freePort } from '../../src/temporal/ports.js';
import { checkoutBuildId } from '../../worker/build-id.js';
import { goTool, TOOLS } from './go-tools.js';
import { ensurePrometheus, type RunningPrometheus, startPrometheus } from './prometheus.js';
import { startTemporalCluster, type TemporalCluster, whileBuilding } from './temporal-cluster.js';

// The product's processes around a Temporal cluster, each an OS process in a working folder of
// its own so that nothing is shared by accident: the sandbox, two workers, two ingress replicas
// (production puts a load balancer in front of them), the codec server, the Temporal Web UI built
// from its Go module with the configuration file of its image, and Prometheus scraping them all.

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
  /** CODEC_SERVER_TOKEN of this cluster's codec server: the CLI's --codec-auth, the browser's sign-in at /session. */
  codecToken: string;
  uiUrl: string;
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
  if (spec.ready) {
    const deadline = Date.now() + timeoutMs;
    try {
      for (;;) {
        signal?.throwIfAborted();
        const text = readFileSync(spec.log, 'utf8');
        if (text.includes(spec.ready)) break;
        if (child.exitCode !== null)
          throw new Error(
            `${spec.name} exited with ${child.exitCode} before it was ready; see ${spec.log}:\n${text.slice(-2000)}`,
          );
        if (Date.now() > deadline)
          throw new Error(`${spec.name} was not ready within ${timeoutMs / 1000} s; see ${spec.log}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    } catch (err) {
      await stopProcess({ spec, child });
      throw err;
    }
  }
  return { spec, child };
}

export async function stopProcess(p: RunningProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (p.child.exitCode !== null || p.child.signalCode !== null) return;
  const exited = new Promise((r) => p.child.once('exit', r));
  p.child.kill(signal);
  const timer = setTimeout(() => p.child.kill('SIGKILL'), 40_000);
  await exited;
  clearTimeout(timer);
}

function node(name: string, entry: string, env: Record<string, string>, dir: string, ready: string): ProcessSpec {
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

function uiSource(): string {
  const out = execFileSync(
    'go',
    ['mod', 'download', '-json', `github.com/temporalio/ui-server/v2@${TOOLS.ui.version}`],
    {
      encoding: 'utf8',
      env: { ...process.env, PATH: `/usr/local/go/bin:${process.env.PATH ?? ''}`, GOFLAGS: '-mod=mod' },
    },
  );
  return (JSON.parse(out) as { Dir: string }).Dir;
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
  copyFileSync(join(uiSource(), 'config', 'docker.yaml'), join(config, 'docker.yaml'));
  writeFileSync(join(config, 'base.yaml'), 'host: 127.0.0.1\n');
  return root;
}

export async function startProduct(opts: {
  dir: string;
  temporalAddress: string;
  namespace: string;
  log: (line: string) => void;
  temporalMetrics?: string;
  /** Stops the start-up: the process starting and those started are stopped, and the promise rejects. */
  signal?: AbortSignal;
}): Promise<ProductCluster> {
  const { dir, log, signal } = opts;
  mkdirSync(join(dir, 'logs'), { recursive: true });
  const running: RunningProcess[] = [];
  const stopAll = async () => {
    for (const p of [...running].reverse()) await stopProcess(p);
  };
  // Each process of the start-up stopped by an abort while it starts.
  const start = (spec: ProcessSpec) => startProcess(spec, undefined, signal);
  try {
    const payloadKey = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64');
    const taskQueue = 'payflows';
    const claimsDir = join(dir, 'claims');
    // Made now, owner-only, so that a client and the workers find one store from the start.
    mkdirSync(claimsDir, { recursive: true, mode: 0o700 });
    const [sandboxPort, ingress1, ingress2, codecPort, uiPort, promPort, m1, m2, h1, h2] = (await Promise.all(
      Array.from({ length: 10 }, () => freePort()),
    )) as [number, number, number, number, number, number, number, number, number, number];
    const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
    const ingressUrls = [`http://127.0.0.1:${ingress1}`, `http://127.0.0.1:${ingress2}`];
    const opsPorts = [await freePort(), await freePort()];
    const ingressOpsUrls = opsPorts.map((port) => `http://127.0.0.1:${port}`);
    const temporal = {
      TEMPORAL_ADDRESS: opts.temporalAddress,
      TEMPORAL_NAMESPACE: opts.namespace,
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

    running.push(
      await start(
        node(
          'sandbox',
          'src/sandbox/main.ts',
          {
            SANDBOX_PORT: String(sandboxPort),
            SANDBOX_STATE_FILE: join(dir, 'sandbox', 'state.json'),
            LOG_LEVEL: 'info',
          },
          dir,
          'sandbox provider listening',
        ),
      ),
    );
    for (const [i, port] of [ingress1, ingress2].entries()) {
      running.push(
        await start(
          node(
            `ingress-${i + 1}`,
            'src/ingress/main.ts',
            {
              ...temporal,
              PROVIDER_SECRET_KEY: SANDBOX_CREDENTIALS.secretKey,
              INGRESS_PORT: String(port),
              INGRESS_OPS_PORT: String(opsPorts[i]),
            },
            dir,
            'ingress listening',
          ),
        ),
      );
    }
    // The provider calls one address back; a load balancer spreads it over the replicas.
    const claimKey = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64');
    const workerEnv = {
      ...temporal,
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
    for (const [i, [metrics, health]] of [
      [m1, h1],
      [m2, h2],
    ].entries()) {
      running.push(
        await start(
          node(
            `worker-${i + 1}`,
            'worker/main.ts',
            { ...workerEnv, WORKER_METRICS_PORT: String(metrics), WORKER_HEALTH_PORT: String(health) },
            dir,
            '"msg":"worker polling"',
          ),
        ),
      );
    }
    const uiUrl = `http://127.0.0.1:${uiPort}`;
    const codecUrl = `http://127.0.0.1:${codecPort}`;
    // Not the embedded stack: the codec server wants a token, and the browser a session (/session).
    const codecToken = randomBytes(24).toString('hex');
    running.push(
      await start(
        node(
          'codec-server',
          'src/temporal/codec-server-main.ts',
          {
            PAYLOAD_ENCRYPTION_KEY: payloadKey,
            TEMPORAL_ADDRESS: opts.temporalAddress,
            // The namespace whose payloads it serves: a call naming another is refused.
            TEMPORAL_NAMESPACE: opts.namespace,
            CODEC_SERVER_PORT: String(codecPort),
            CODEC_SERVER_ALLOWED_ORIGINS: uiUrl,
            CODEC_SERVER_TOKEN: codecToken,
            // POST /claims stores where the workers read (docs/other-languages.md).
            CLAIM_STORE_DIR: claimsDir,
            CLAIM_ENCRYPTION_KEY: claimKey,
            LOG_LEVEL: 'info',
          },
          dir,
          'codec server listening',
        ),
      ),
    );

    // The Web UI with the configuration file its image uses (config/docker.yaml of its module),
    // on loopback (uiConfig).
    const ui = await whileBuilding(signal, () => goTool(TOOLS.ui, log));
    const uiSpec: ProcessSpec = {
      name: 'temporal-ui',
      command: ui,
      args: ['--root', uiConfig(join(dir, 'temporal-ui')), '--config', 'config', '--env', 'docker', 'start'],
      cwd: join(dir, 'temporal-ui'),
      env: {
        PATH: process.env.PATH ?? '',
        TEMPORAL_ADDRESS: opts.temporalAddress,
        TEMPORAL_UI_PORT: String(uiPort),
        TEMPORAL_CODEC_ENDPOINT: codecUrl,
        TEMPORAL_CODEC_INCLUDE_CREDENTIALS: 'true',
        TEMPORAL_CORS_ORIGINS: uiUrl,
        TEMPORAL_DEFAULT_NAMESPACE: opts.namespace,
      },
      log: join(dir, 'logs', 'temporal-ui.log'),
    };
    running.push(await start(uiSpec));
    await waitForHttp(`${uiUrl}/`, uiSpec, signal);

    // On a machine that has never run it, Debian's package first (else its spawn fails unhandled).
    ensurePrometheus(log);
    const prometheus: RunningPrometheus = await startPrometheus({
      dir: join(dir, 'prometheus'),
      port: promPort,
      workers: [`127.0.0.1:${m1}`, `127.0.0.1:${m2}`],
      ingresses: ingressOpsUrls.map((u) => u.replace('http://', '')),
      ...(opts.temporalMetrics ? { temporal: [opts.temporalMetrics] } : {}),
      intervalSeconds: 2,
      signal,
    });
    running.push({
      spec: {
        name: 'prometheus',
        command: 'prometheus',
        args: [],
        cwd: join(dir, 'prometheus'),
        env: {},
        log: join(dir, 'prometheus', 'prometheus.log'),
      },
      child: prometheus.process,
    });

    return {
      sandboxUrl,
      ingressUrls,
      ingressOpsUrls,
      workerMetrics: [`127.0.0.1:${m1}`, `127.0.0.1:${m2}`],
      workerHealth: [`http://127.0.0.1:${h1}/health`, `http://127.0.0.1:${h2}/health`],
      codecUrl,
      codecToken,
      uiUrl,
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
  } catch (err) {
    await stopAll();
    throw err;
  }
}

/**
 * `npm run cluster`'s topology, as it and `npm run test:cluster` start it: the Temporal cluster on
 * PostgreSQL, then the product's processes around it. A failed or aborted start stops what started.
 */
export async function startClusterTopology(
  opts: Pick<Parameters<typeof startTemporalCluster>[0], 'dir' | 'log' | 'signal' | 'dynamicConfig'>,
): Promise<{ temporal: TemporalCluster; product: ProductCluster; stop(): Promise<void> }> {
  const temporal = await startTemporalCluster(opts);
  try {
    const product = await startProduct({
      dir: opts.dir,
      temporalAddress: temporal.address,
      namespace: temporal.namespace,
      temporalMetrics: temporal.metrics,
      log: opts.log,
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    // The product's processes, then the server, then PostgreSQL.
    return { temporal, product, stop: async () => (await product.stop(), await temporal.stop()) };
  } catch (err) {
    await temporal.stop();
    throw err;
  }
}

async function waitForHttp(url: string, spec: ProcessSpec, signal?: AbortSignal): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    signal?.throwIfAborted();
    try {
      const res = await request(url);
      await res.body.dump();
      if (res.statusCode < 500) return;
    } catch {
      // not yet listening
    }
    if (Date.now() > deadline) throw new Error(`${spec.name} did not answer at ${url} within 60 s; see ${spec.log}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
