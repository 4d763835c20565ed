import type { FastifyInstance } from 'fastify';
import type { Config } from '../../src/config.js';
import { ingressFromConfig } from '../../src/ingress/from-config.js';

// The callback ingress of `npm run dev` (scripts/dev.ts), apart so that where it listens is tested.

/** The ingress of `npm run dev`, listening on INGRESS_HOST (loopback with the sandbox's secret) at INGRESS_PORT. */
export async function startDevIngress(
  config: Config,
  deps: Parameters<typeof ingressFromConfig>[1],
): Promise<{ app: FastifyInstance; host: string }> {
  const app = ingressFromConfig(config, deps);
  const { host } = config.ingress;
  await app.listen({ port: config.ingress.port, host });
  return { app, host };
}
