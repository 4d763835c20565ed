import { Runtime } from '@temporalio/worker';
import pretty from 'pino-pretty';
import { type Config, ConfigError, loadConfig } from '../src/config.js';
import { requireSettings } from '../src/required-settings.js';
import { assertPortFree } from '../src/temporal/ports.js';
import { describeOutcome } from '../worker/current-version.js';
import { createLogger } from '../src/telemetry/logger.js';
import { workerRuntimeOptions } from '../src/telemetry/runtime.js';
import { startStack, stopStack } from './lib/stack.js';

// `npm run dev`: the whole product on its embedded default — Temporal dev server with its Web
// UI, the sandbox provider, the callback ingress and the worker — in one process tree.

const say = (line: string) => console.log(`[dev] ${line}`);
const stops: Parameters<typeof stopStack>[0] = [];
let stopping = false;

async function shutdown(code: number): Promise<never> {
  if (stopping) process.exit(code);
  stopping = true;
  say('stopping…');
  await stopStack(stops, (err) => say(`while stopping: ${err.message}`));
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

  // Only where this script starts the server does the worker take over the current version, its
  // runs following the code (AUTO_UPGRADE) instead of staying pinned to a commit whose worker is gone.
  const embedded = config.temporal.embedded;
  const stack = await startStack({
    settings: process.env,
    ports: 'configured',
    sandbox: config.provider.usesSandbox ? { stateFile: config.sandbox.stateFile } : 'none',
    ingressOps: {},
    codecServer: 'start',
    ingressLogger: logger.child({ service: 'ingress' }),
    worker: () => {
      say('Bundling workflows and starting the worker…');
      return {
        takeOverCurrentVersion: embedded,
        ...(embedded ? { defaultVersioningBehavior: 'AUTO_UPGRADE' as const } : {}),
      };
    },
    log: say,
    stops,
  });
  const { version, currentVersion, running } = stack.worker!;
  void currentVersion.then((o) => o && version && say(`Worker version    ${describeOutcome(version, o)}`));
  running.catch((err: Error) => {
    say(`worker failed: ${err.message}`);
    void shutdown(1);
  });

  say(`Temporal gRPC     ${stack.address} (namespace ${config.temporal.namespace})`);
  if (stack.temporal) say(`Temporal Web UI   ${stack.temporal.uiUrl}`);
  say(
    `Provider          ${config.provider.baseUrl}${stack.sandbox ? ' (sandbox; operator routes under /sandbox/)' : ''}`,
  );
  const opsUrl = `http://${config.ingress.ops.host}:${config.ingress.ops.port}`;
  say(`Callback ingress  ${config.ingress.publicUrl}/callbacks (health: ${opsUrl}/health, metrics: ${opsUrl}/metrics)`);
  if (stack.ingressHost === '127.0.0.1')
    say(
      "Callback ingress  listens on 127.0.0.1 only: it takes the sandbox's published secret, which anyone could sign with",
    );
  say(`Worker            task queue ${config.temporal.taskQueue} (metrics: http://${metricsAddress}/metrics)`);
  if (embedded && version)
    say('Worker runs       follow the code: AUTO_UPGRADE, not pinned as deployed workers (docs/deploying.md)');
  say(`Codec server      ${stack.codecUrl} (payloads are encrypted; the UI decodes them through it)`);
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
