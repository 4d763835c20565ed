import { Runtime } from '@temporalio/worker';
import { ensureClaimRetentionSchedule } from '../src/claims/schedule.js';
import { providerFromConfig } from '../src/provider/from-config.js';
import { connectClient } from '../src/temporal/connection.js';
import { startupConfig } from '../src/required-settings.js';
import { refusesToStart } from '../src/startup.js';
import { createLogger } from '../src/telemetry/logger.js';
import { workerRuntimeOptions } from '../src/telemetry/runtime.js';
import { startTracing } from '../src/telemetry/tracing.js';
import { providerCallMetrics } from '../src/telemetry/worker-metrics.js';
import { createWorker } from './create-worker.js';
import { describeOutcome } from './current-version.js';
import { startWorkerHealth } from './health.js';

// `npm run worker`: runs the workflows and activities until SIGINT/SIGTERM, then drains (workerSettings).
const config = startupConfig('worker');
const logger = createLogger({ service: 'worker', level: config.telemetry.logLevel });
// First, before any connection: the SDK's logs go to the JSON logger, its metrics to Prometheus.
Runtime.install(workerRuntimeOptions({ logger, metricsBindAddress: config.telemetry.workerMetrics }));
const provider = providerFromConfig(config, { onCall: providerCallMetrics(Runtime.instance().metricMeter) });
const tracing = startTracing({ service: 'worker', otlpEndpoint: config.telemetry.otlpEndpoint });
// Never takes over the current version: an operator promotes versions on a cluster (docs/deploying.md).
const { worker, connection, cache, version, currentVersion } = await refusesToStart(() =>
  createWorker({ config, provider, tracing, warn: (line) => logger.warn(line) }),
);
// What the cache holds decides whether the worker evicts or runs out of memory under load: said first.
logger.info({ maxCachedWorkflows: cache.maxCachedWorkflows, boundedBy: cache.by }, cache.explanation);
// Which build this is, and whether it gets new runs (docs/deploying.md).
if (!version) logger.info('worker unversioned (WORKER_VERSIONING=off)');
else {
  const { deploymentName, buildId, source } = version;
  const fields = { deploymentName, buildId, buildIdFrom: source, bootstrap: config.worker.versioning.bootstrap };
  logger.info(fields, `worker version ${deploymentName}:${buildId} (build id from ${source})`);
}
void currentVersion.then((o) => {
  if (o && version)
    logger[o.outcome === 'gave-up' ? 'warn' : 'info']({ currentVersion: o }, describeOutcome(version, o));
});
// The claim store's retention sweep: one Schedule per task queue, made or updated by every worker.
const scheduler = await refusesToStart(() => connectClient(config, 'worker', { warn: (line) => logger.warn(line) }));
const retentionSchedule = await ensureClaimRetentionSchedule(scheduler, config);
await scheduler.connection.close();
const health = config.worker.health ? await startWorkerHealth(worker, connection, config.worker.health) : undefined;
logger.info(
  {
    taskQueue: config.temporal.taskQueue,
    provider: config.provider.baseUrl,
    metrics: config.telemetry.workerMetrics ?? 'off',
    health: config.worker.health ? `${config.worker.health.host}:${config.worker.health.port}` : 'off',
    tracing: tracing.enabled,
    shutdownGraceMs: config.worker.shutdownGraceMs,
    retentionSchedule,
  },
  'worker polling',
);
await worker.run();
logger.info('worker drained and stopped');
await health?.close();
await provider.close();
await connection.close();
await tracing.shutdown();
