import type { Client } from '@temporalio/client';
import { Runtime } from '@temporalio/worker';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { type Config, ConfigError, loadConfig, temporalAddress } from '../../src/config.js';
import { ingressFromConfig } from '../../src/ingress/from-config.js';
import { createIngressOps } from '../../src/ingress/ops.js';
import type { ProviderClient, ProviderClientOptions } from '../../src/provider/client.js';
import { providerFromConfig } from '../../src/provider/from-config.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { codecFromConfig } from '../../src/temporal/codec.js';
import { codecAccessProblem, createCodecServer } from '../../src/temporal/codec-server.js';
import { connectClient } from '../../src/temporal/connection.js';
import type { DevServer } from '../../src/temporal/dev-server.js';
import { startEmbeddedTemporal } from '../../src/temporal/embedded.js';
import { assertPortFree, freePort } from '../../src/temporal/ports.js';
import { createIngressMetrics } from '../../src/telemetry/ingress-metrics.js';
import { providerCallMetrics } from '../../src/telemetry/worker-metrics.js';
import { providerCredentials } from '../../src/required-settings.js';
import { type CreateWorkerOptions, createWorker } from '../../worker/create-worker.js';
import { startDevIngress } from './dev-ingress.js';

// The product's stack in one process, each piece built from the configuration as its service
// builds it: Temporal (the embedded dev server, or the server the configuration names), the codec
// server, the sandbox provider, the callback ingress and its operations port, and a worker.
// `npm run dev`, the tests' helper and the bench start it; what differs between them is an option.

type Settings = Record<string, string | undefined>;
type Stop = () => Promise<unknown>;

/** What a worker of the stack takes beyond its configuration and provider. */
export type StackWorkerOptions = Omit<CreateWorkerOptions, 'config' | 'provider'> & {
  /** Each provider call the worker makes; default: counted into the SDK Runtime's metrics. */
  onProviderCall?: ProviderClientOptions['onCall'];
};

export interface StackOptions {
  /** The settings, as loadConfig reads them; TEMPORAL_ADDRESS unset embeds Temporal. */
  settings: Settings;
  /**
   * 'configured': each piece on its configured host and port, checked free first (`npm run dev`).
   * 'ephemeral': on loopback, any free port, and the worker told where the sandbox and the ingress are.
   */
  ports: 'configured' | 'ephemeral';
  /**
   * Start the sandbox provider, whose credentials are the configured provider's; `onRequest` hears
   * each request it answers, by method and route (`GET /v2/wallet/:walletId`).
   */
  sandbox: { stateFile?: string; onRequest?: (route: string) => void } | 'none';
  /** The ingress's operations port (/health, /metrics), Temporal asked every `healthIntervalMs`. */
  ingressOps: { healthIntervalMs?: number } | 'none';
  /** The codec server, for the embedded Web UI. */
  codecServer: 'start' | 'none';
  /** The worker, given what it takes once Temporal, the sandbox and the ingress are up. */
  worker: ((stack: StackPieces) => StackWorkerOptions | Promise<StackWorkerOptions>) | 'none';
  /** The embedded dev server's log file. */
  temporalLogFile?: string;
  ingressLogger?: FastifyBaseLogger;
  /** How long the ingress waits for Temporal before answering 503; the ingress's own default when unset. */
  ingressTemporalTimeoutMs?: number;
  log: (line: string) => void;
  /**
   * Where each started piece's stop goes, in the order of the start: the caller stops them in
   * reverse (stopStack), also when the start fails or is interrupted.
   */
  stops: Stop[];
}

export interface StackPieces {
  /** The configuration the worker runs with: the settings, and the stack's own addresses. */
  config: Config;
  settings: Record<string, string>;
  /** Temporal's gRPC address. */
  address: string;
  /** The embedded dev server, if this stack started one. */
  temporal?: DevServer;
  /** A client of the stack's Temporal, the ingress's. */
  client: Client;
  sandbox?: Sandbox;
  sandboxUrl?: string;
  ingress: FastifyInstance;
  ingressUrl: string;
  ingressHost: string;
  opsUrl?: string;
  codecUrl?: string;
}

export interface Stack extends StackPieces, Partial<StackWorker> {}

export interface StackWorker {
  provider: ProviderClient;
  worker: Pick<Awaited<ReturnType<typeof createWorker>>, 'version' | 'currentVersion'> & { running: Promise<void> };
}

const LOOPBACK = '127.0.0.1';

/** Stops what a stack started, last first; `stops` is emptied, so that a second call does nothing. */
export async function stopStack(stops: Stop[], onError: (err: Error) => void = () => {}): Promise<void> {
  for (const stop of stops.splice(0).reverse()) await stop().catch(onError);
}

export async function startStack(opts: StackOptions): Promise<Stack> {
  const { stops, log } = opts;
  const ephemeral = opts.ports === 'ephemeral';
  const settings = { ...opts.settings };
  if (ephemeral && loadConfig(settings).temporal.embedded)
    Object.assign(settings, { TEMPORAL_PORT: String(await freePort()), TEMPORAL_UI_PORT: String(await freePort()) });
  const initial = loadConfig(settings);
  if (!ephemeral) await portsFree(initial, opts);
  const at = (configured: { port: number; host: string }) =>
    ephemeral ? { port: 0, host: LOOPBACK } : { port: configured.port, host: configured.host };

  let codecUrl: string | undefined;
  if (opts.codecServer === 'start') {
    // It holds the payload key: on loopback for the Web UI in this machine's browser.
    const problem = codecAccessProblem(initial.codecServer, initial.codecServer.host, {
      embedded: initial.temporal.embedded,
    });
    if (problem) throw new ConfigError(problem);
    const codec = createCodecServer(codecFromConfig(initial.payloads), initial.codecServer);
    await codec.listen(at(initial.codecServer));
    stops.push(() => codec.close());
    codecUrl = `http://${LOOPBACK}:${addressPort(codec)}`;
  }

  let temporal: DevServer | undefined;
  if (initial.temporal.embedded) {
    temporal = await startEmbeddedTemporal({
      ...initial.temporal,
      logFile: opts.temporalLogFile ?? '.data/temporal.log',
      ...(codecUrl ? { uiCodecEndpoint: codecUrl } : {}),
      log,
    });
    stops.push(() => temporal!.stop());
  }

  let sandbox: Sandbox | undefined;
  let sandboxUrl: string | undefined;
  if (opts.sandbox !== 'none') {
    const { apiKey, secretKey } = providerCredentials(initial);
    sandbox = createSandbox({
      apiKey,
      secretKey,
      ...(opts.sandbox.stateFile ? { stateFile: opts.sandbox.stateFile } : {}),
    });
    const { onRequest } = opts.sandbox;
    if (onRequest)
      sandbox.app.addHook('onRequest', async (req) => onRequest(`${req.method} ${req.routeOptions.url ?? 'unknown'}`));
    const { port, host } = at(initial.sandbox);
    sandboxUrl = await sandbox.listen(port, host);
    stops.push(() => sandbox!.close());
  }

  // As every other process connects: TLS, API key and gRPC metadata apply.
  const client = await connectClient(initial);
  stops.push(() => client.connection.close());
  const metrics = createIngressMetrics();
  const deps = {
    client,
    metrics,
    ...(opts.ingressLogger ? { logger: opts.ingressLogger } : {}),
    ...(opts.ingressTemporalTimeoutMs ? { temporalTimeoutMs: opts.ingressTemporalTimeoutMs } : {}),
  };
  const { app: ingress, host: ingressHost } = ephemeral
    ? await listening(ingressFromConfig(initial, deps), LOOPBACK)
    : await startDevIngress(initial, deps);
  stops.push(() => ingress.close());
  const ingressUrl = ephemeral ? `http://${LOOPBACK}:${addressPort(ingress)}` : initial.ingress.publicUrl!;

  let opsUrl: string | undefined;
  if (opts.ingressOps !== 'none') {
    const ops = createIngressOps({ client, metrics, healthIntervalMs: opts.ingressOps.healthIntervalMs });
    opsUrl = await ops.listen(at(initial.ingress.ops));
    stops.push(() => ops.close());
  }

  // The worker reaches the sandbox as it would a real provider, and tells it where the ingress is.
  if (ephemeral) {
    if (sandboxUrl) settings.PROVIDER_BASE_URL ??= sandboxUrl;
    settings.INGRESS_PUBLIC_URL ??= ingressUrl;
  }
  const config = ephemeral ? loadConfig(settings) : initial;
  const pieces: StackPieces = {
    config,
    settings: Object.fromEntries(Object.entries(settings).filter((e): e is [string, string] => e[1] !== undefined)),
    address: temporal?.address ?? temporalAddress(config),
    ...(temporal ? { temporal } : {}),
    client,
    ...(sandbox ? { sandbox, sandboxUrl } : {}),
    ingress,
    ingressUrl,
    ingressHost,
    ...(opsUrl ? { opsUrl } : {}),
    ...(codecUrl ? { codecUrl } : {}),
  };
  if (opts.worker === 'none') return pieces;

  return { ...pieces, ...(await startWorker(config, await opts.worker(pieces), stops)) };
}

/** The stack's worker alone, running with its provider client; its stops go to `stops`. */
export async function startWorker(config: Config, options: StackWorkerOptions, stops: Stop[]): Promise<StackWorker> {
  const { onProviderCall, ...workerOptions } = options;
  const provider = providerFromConfig(config, {
    onCall: onProviderCall ?? providerCallMetrics(Runtime.instance().metricMeter),
  });
  stops.push(() => provider.close());
  const { worker, connection, version, currentVersion } = await createWorker({ ...workerOptions, config, provider });
  const running = worker.run();
  stops.push(async () => {
    worker.shutdown();
    await running;
    await connection.close();
  });
  return { provider, worker: { version, currentVersion, running } };
}

/** Each configured port this stack would take is free, else a ConfigError naming its variable. */
async function portsFree(config: Config, opts: StackOptions): Promise<void> {
  if (config.temporal.embedded) await assertPortFree(config.temporal.port, 'TEMPORAL_PORT');
  if (config.temporal.embedded) await assertPortFree(config.temporal.uiPort, 'TEMPORAL_UI_PORT');
  if (opts.sandbox !== 'none') await assertPortFree(config.sandbox.port, 'SANDBOX_PORT', config.sandbox.host);
  await assertPortFree(config.ingress.port, 'INGRESS_PORT', config.ingress.host);
  if (opts.ingressOps !== 'none')
    await assertPortFree(config.ingress.ops.port, 'INGRESS_OPS_PORT', config.ingress.ops.host);
  if (opts.codecServer === 'start') await assertPortFree(config.codecServer.port, 'CODEC_SERVER_PORT');
}

async function listening(app: FastifyInstance, host: string): Promise<{ app: FastifyInstance; host: string }> {
  await app.listen({ port: 0, host });
  return { app, host };
}

function addressPort(app: FastifyInstance): number {
  const address = app.server.address();
  return typeof address === 'object' && address ? address.port : 0;
}
