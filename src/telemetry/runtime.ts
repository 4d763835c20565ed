import { makeTelemetryFilterString, type RuntimeOptions } from '@temporalio/worker';
import type { Logger } from 'pino';
import { temporalLogger } from './logger.js';

// A worker's SDK Runtime: its logs (the Rust core's forwarded) into the process's JSON logger, its
// metrics on the Prometheus endpoint the product's metrics share.

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
