import { Runtime } from '@temporalio/worker';
import pretty from 'pino-pretty';
import { createIngressOps } from '../src/ingress/ops.js';
import { createIngressMetrics } from '../src/telemetry/ingress-metrics.js';
import { type Config, ConfigError, loadConfig, temporalAddress } from '../src/config.js';
import { providerFromConfig } from '../src/provider/from-config.js';
import { providerCredentials, requireSettings } from '../src/required-settings.js';
import { createSandbox, type Sandbox } from '../src/sandbox/server.js';
import type { DevServer } from '../src/temporal/dev-server.js';
import { codecFromConfig } from '../src/temporal/codec.js';
import { codecAccessProblem, createCodecServer } from '../src/temporal/codec-server.js';
import { connectClient } from '../src/temporal/connection.js';
import { startEmbeddedTemporal } from '../src/temporal/embedded.js';
import { assertPortFree } from '../src/temporal/ports.js';
import { createWorker } from '../worker/create-worker.js';
import { describeOutcome } from '../worker/current-version.js';
import { createLogger } from '../src/telemetry/logger.js';
import { workerRuntimeOptions } from '../src/telemetry/runtime.js';
import { providerCallMetrics } from '../src/telemetry/worker-metrics.js';
import { startDevIngress } from './lib/dev-ingress.js';

// `npm run dev`: the whole product on its embedded default — Temporal dev server with its Web
// UI, the sandbox provider, the callback ingress and the worker — in one process tree.

const say = (line: string) => console.log(`[dev] ${line}`);
const stops: Array<() => Promise<unknown>> = [];
let stopping = false;

async function shutdown(code: number): Promise<never> {
  if (stopping) process.exit(code);
  stopping = true;
  say('stopping…');
  for (const stop of stops.reverse()) await stop().catch((err: Error) => say(`while stopping: ${err.message}`));
  say('stopped');
  process.exit(code);
}

async function main(config: Config): Promise<void> {
  // The ingress started here refuses, like `npm run ingress`, to verify callbacks with the
  // sandbox's published secret against a Temporal server it did not start.
  requireSettings(config, 'ingress');
  // First, before anything (the SDK-download path included) creates a Runtime. This script owns
  // the shutdown order (worker, ingress, sandbox, server): no SDK signal handlers.
  // Logs in a readable form for people (the processes on their own write JSON lines).
  const logger = createLogger({
    service: 'dev',
    level: config.telemetry.logLevel,
    destination: pretty({
      colorize: true,
      sync: true,
      translateTime: 'HH:MM:ss',
      ignore: 'pid,hostname,service',
      singleLine: true,
    }),
  });
  const metricsAddress = config.telemetry.workerMetrics ?? '127.0.0.1:9464';
  await assertPortFree(Number(metricsAddress.split(':').at(-1)), 'WORKER_METRICS_PORT');
  Runtime.install({ ...workerRuntimeOptions({ logger, metricsBindAddress: metricsAddress }), shutdownSignals: [] });
  if (config.temporal.embedded) await assertPortFree(config.temporal.port, 'TEMPORAL_PORT');
  if (config.temporal.embedded) await assertPortFree(config.temporal.uiPort, 'TEMPORAL_UI_PORT');
  if (config.provider.usesSandbox) await assertPortFree(config.sandbox.port, 'SANDBOX_PORT', config.sandbox.host);
  await assertPortFree(config.ingress.port, 'INGRESS_PORT', config.ingress.host);
  await assertPortFree(config.ingress.ops.port, 'INGRESS_OPS_PORT', config.ingress.ops.host);
  await assertPortFree(config.payloads.codecServerPort, 'CODEC_SERVER_PORT');

  // The codec server holds the payload key: loopback only, for the Web UI in this machine's browser.
  const codecUrl = `http://127.0.0.1:${config.codecServer.port}`;
  const problem = codecAccessProblem(config.codecServer, config.codecServer.host, {
    embedded: config.temporal.embedded,
  });
  if (problem) throw new ConfigError(problem);
  const codecServer = createCodecServer(codecFromConfig(config.payloads), config.codecServer);
  await codecServer.listen({ port: config.codecServer.port, host: config.codecServer.host });
  stops.push(() => codecServer.close());

  let server: DevServer | undefined;
  if (config.temporal.embedded) {
    server = await startEmbeddedTemporal({
      ...config.temporal,
      logFile: '.data/temporal.log',
      uiCodecEndpoint: codecUrl,
      log: say,
    });
    stops.push(() => server!.stop());
  }
  const address = server?.address ?? temporalAddress(config);

  let sandbox: Sandbox | undefined;
  if (config.provider.usesSandbox) {
    sandbox = createSandbox({
      ...providerCredentials(config),
      stateFile: config.sandbox.stateFile ?? '.data/sandbox.json',
    });
    await sandbox.listen(config.sandbox.port, config.sandbox.host);
    stops.push(() => sandbox!.close());
  }

  // As every other process connects (the worker below included): TLS, API key and gRPC metadata apply.
  const client = await connectClient(config);
  stops.push(() => client.connection.close());
  const ingressMetrics = createIngressMetrics();
  const { app: ingress, host: ingressHost } = await startDevIngress(config, {
    client,
    logger: logger.child({ service: 'ingress' }),
    metrics: ingressMetrics,
  });
  stops.push(() => ingress.close());
  const ops = createIngressOps({ client, metrics: ingressMetrics });
  await ops.listen(config.ingress.ops);
  stops.push(() => ops.close());

  const provider = providerFromConfig(config, { onCall: providerCallMetrics(Runtime.instance().metricMeter) });
  say('Bundling workflows and starting the worker…');
  // Only here, where this script started the server: the worker takes over the current version, and
  // its runs follow the code (AUTO_UPGRADE) instead of staying pinned to a commit whose worker is gone.
  const embedded = server !== undefined;
  const {
    worker,
    connection: workerConnection,
    version,
    currentVersion,
  } = await createWorker({
    config,
    provider,
    takeOverCurrentVersion: embedded,
    ...(embedded ? { defaultVersioningBehavior: 'AUTO_UPGRADE' as const } : {}),
  });
  const running = worker.run();
  void currentVersion.then((o) => o && version && say(`Worker version    ${describeOutcome(version, o)}`));
  stops.push(async () => {
    worker.shutdown();
    await running;
    await workerConnection.close();
    await provider.close();
  });
  running.catch((err: Error) => {
    say(`worker failed: ${err.message}`);
    void shutdown(1);
  });

  say(`Temporal gRPC     ${address} (namespace ${config.temporal.namespace})`);
  if (server) say(`Temporal Web UI   ${server.uiUrl}`);
  say(`Provider          ${config.provider.baseUrl}${sandbox ? ' (sandbox; operator routes under /sandbox/)' : ''}`);
  const opsUrl = `http://${config.ingress.ops.host}:${config.ingress.ops.port}`;
  say(`Callback ingress  ${config.ingress.publicUrl}/callbacks (health: ${opsUrl}/health, metrics: ${opsUrl}/metrics)`);
  if (ingressHost === '127.0.0.1')
    say(
      "Callback ingress  listens on 127.0.0.1 only: it takes the sandbox's published secret, which anyone could sign with",
    );
  say(`Worker            task queue ${config.temporal.taskQueue} (metrics: http://${metricsAddress}/metrics)`);
  if (embedded && version)
    say('Worker runs       follow the code: AUTO_UPGRADE, not pinned as deployed workers (docs/deploying.md)');
  say(`Codec server      ${codecUrl} (payloads are encrypted; the UI decodes them through it)`);
  say('ready — press Ctrl-C to stop');
}

process.once('SIGINT', () => void shutdown(0));
process.once('SIGTERM', () => void shutdown(0));
try {
  await main(loadConfig());
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : `[dev] failed to start: ${(err as Error).message}`);
  await shutdown(1);
}
