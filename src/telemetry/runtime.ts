import { makeTelemetryFilterString, type RuntimeOptions } from '@temporalio/worker';
import type { Logger } from 'pino';
import { temporalLogger } from './logger.js';

// How a worker process installs the SDK's Runtime: its logs (the SDK's and the Rust core's,
// forwarded) into the process's JSON logger, and its metrics on a Prometheus endpoint that the
// product's own metrics share (they are emitted through the same meter).

export interface WorkerTelemetry {
  logger: Logger;
  /** `host:port` of the Prometheus endpoint; none when unset. */
  metricsBindAddress?: string;
}

export function workerRuntimeOptions({ logger, metricsBindAddress }: WorkerTelemetry): RuntimeOptions {
  return {
    logger: temporalLogger(logger),
    telemetryOptions: {
      logging: { forward: {}, filter: makeTelemetryFilterString({ core: 'WARN', other: 'ERROR' }) },
      ...(metricsBindAddress
        ? {
            metrics: {
              prometheus: { bindAddress: metricsBindAddress, countersTotalSuffix: true, useSecondsForDurations: true },
            },
          }
        : {}),
    },
  };
}
