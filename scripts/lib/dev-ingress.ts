import type { Client } from '@temporalio/client';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { type Config, SANDBOX_CREDENTIALS } from '../../src/config.js';
import { createIngress } from '../../src/ingress/server.js';
import type { IngressMetrics } from '../../src/telemetry/ingress-metrics.js';

// The callback ingress of `npm run dev` (scripts/dev.ts), apart so that where it listens is tested.

/**
 * Where `npm run dev`'s ingress listens: loopback while any of its callback secrets is the sandbox's
 * published one (its defaults, or PROVIDER_SECRET_KEY set to it), since anyone who can reach it
 * could then sign a deposit; the sandbox calls it back on loopback. Every interface with a secret
 * of the deployment's own, where the provider must reach it.
 */
export function devIngressHost(config: Config): string {
  return config.ingress.callbackSecrets.includes(SANDBOX_CREDENTIALS.secretKey) ? '127.0.0.1' : '0.0.0.0';
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
