import type { Client } from '@temporalio/client';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { IngressMetrics } from '../telemetry/ingress-metrics.js';
import { serveMetrics } from '../telemetry/metrics-endpoint.js';
import { watchTemporalHealth } from './temporal-health.js';

// The ingress's operations port (INGRESS_OPS_PORT): GET /health and GET /metrics, apart from the
// public callback port so that neither is open to the internet.

export interface IngressOpsOptions {
  client: Client;
  /** The metrics the callback server counts into (createIngress's `metrics`). */
  metrics: IngressMetrics;
  /** How often Temporal is asked whether it answers (default 5 s). */
  healthIntervalMs?: number;
  logger?: FastifyBaseLogger;
}

export function createIngressOps(opts: IngressOpsOptions): FastifyInstance {
  const app = Fastify(opts.logger ? { loggerInstance: opts.logger } : { logger: false });
  const health = watchTemporalHealth(opts.client, { intervalMs: opts.healthIntervalMs });
  // Listening only once Temporal was asked: an orchestrator's first probe gets an answer, not "unknown".
  app.addHook('onReady', async () => health.firstCheck);
  app.addHook('onClose', async () => health.stop());

  serveMetrics(app, opts.metrics.registry);

  app.get('/health', async (_req, reply) => {
    const temporal = health.current();
    if (temporal === 'ok') return { status: 'ok', temporal };
    return reply.code(503).send({ status: 'degraded', temporal });
  });
  return app;
}
