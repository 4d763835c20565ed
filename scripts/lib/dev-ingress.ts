import type { Client } from '@temporalio/client';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from '../../src/config.js';
import { createIngress } from '../../src/ingress/server.js';
import type { IngressMetrics } from '../../src/telemetry/ingress-metrics.js';

// The callback ingress of `npm run dev` (scripts/dev.ts), apart so that where it listens is tested.

/**
 * Where `npm run dev`'s ingress listens: INGRESS_HOST as src/config.ts decides it for every ingress
 * (loopback while any callback secret is the sandbox's published one, else every interface).
 */
export function devIngressHost(config: Config): string {
  return config.ingress.host;
}

/** The ingress of `npm run dev`, listening on `devIngressHost(config)` at INGRESS_PORT. */
export async function startDevIngress(
  config: Config,
  deps: { client: Client; logger?: FastifyBaseLogger; metrics?: IngressMetrics },
): Promise<{ app: FastifyInstance; host: string }> {
  const app = createIngress({
    client: deps.client,
    taskQueue: config.temporal.taskQueue,
    callbackSecrets: config.ingress.callbackSecrets,
    requestTimeoutMs: config.ingress.requestTimeoutMs,
    maxConnections: config.ingress.maxConnections,
    maxBodyBytes: config.ingress.maxBodyBytes,
    walletPollIntervalMs: config.wallet.pollIntervalMs,
    walletReconcileIntervalMs: config.wallet.reconcileIntervalMs,
    walletPollMaxMs: config.wallet.pollMaxMs,
    ...(deps.logger ? { logger: deps.logger } : {}),
    ...(deps.metrics ? { metrics: deps.metrics } : {}),
  });
  const host = devIngressHost(config);
  await app.listen({ port: config.ingress.port, host });
  return { app, host };
}
