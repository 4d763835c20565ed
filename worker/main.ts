import { Runtime } from '@temporalio/worker';
import { loadConfig } from '../src/config.js';
import { providerFromConfig } from '../src/provider/from-config.js';
import { createLogger } from '../src/telemetry/logger.js';
import { workerRuntimeOptions } from '../src/telemetry/runtime.js';
import { startTracing } from '../src/telemetry/tracing.js';
import { providerCallMetrics } from '../src/telemetry/worker-metrics.js';
import { createWorker } from './create-worker.js';

// `npm run worker`: runs the workflows and activities until SIGINT/SIGTERM, then drains.
const config = loadConfig();
const logger = createLogger({ service: 'worker', level: config.telemetry.logLevel });
// First, before any connection: the SDK's logs go to the JSON logger, its metrics to Prometheus.
Runtime.install(workerRuntimeOptions({ logger, metricsBindAddress: config.telemetry.workerMetrics }));
const provider = providerFromConfig(config, { onCall: providerCallMetrics(Runtime.instance().metricMeter) });
const tracing = startTracing({ service: 'worker', otlpEndpoint: config.telemetry.otlpEndpoint });
const { worker, connection } = await createWorker({ config, provider, tracing });
logger.info({ taskQueue: config.temporal.taskQueue, provider: config.provider.baseUrl, metrics: config.telemetry.workerMetrics ?? 'off', tracing: tracing.enabled }, 'worker polling');
await worker.run();
await provider.close();
await connection.close();
await tracing.shutdown();
