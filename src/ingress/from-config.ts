import type { Client } from '@temporalio/client';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { IngressMetrics } from '../telemetry/ingress-metrics.js';
import { createIngress } from './server.js';

/** The callback ingress as the configuration describes it: what `npm run ingress` and `npm run dev` run. */
export function ingressFromConfig(
  config: Config,
  deps: { client: Client; logger?: FastifyBaseLogger; metrics?: IngressMetrics; temporalTimeoutMs?: number },
): FastifyInstance {
  return createIngress({
    ...deps,
    taskQueue: config.temporal.taskQueue,
    callbackSecrets: config.ingress.callbackSecrets,
    requestTimeoutMs: config.ingress.requestTimeoutMs,
    maxConnections: config.ingress.maxConnections,
    maxBodyBytes: config.ingress.maxBodyBytes,
    walletTimings: config.wallet,
  });
}
