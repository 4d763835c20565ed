import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Registry } from 'prom-client';

// What every process that serves its own GET /metrics (prom-client) shares: a registry with the
// process's default metrics under its prefix, and the route that serves it.

/** A registry with Node's process metrics (CPU, memory, event loop lag) named `<prefix>…`. */
export function processRegistry(prefix: string): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix });
  return registry;
}

/** GET /metrics on `app`: the registry in Prometheus's text format. */
export function serveMetrics(app: FastifyInstance, registry: Registry): void {
  app.get('/metrics', async (_req, reply) => reply.type(registry.contentType).send(await registry.metrics()));
}
