import { startupConfig } from '../required-settings.js';
import { refusesToStart } from '../startup.js';
import { connectClient } from '../temporal/connection.js';
import { createLogger } from '../telemetry/logger.js';
import { startTracing } from '../telemetry/tracing.js';
import { inFlightRequests } from './drain.js';
import { createIngressOps } from './ops.js';
import { ingressFromConfig } from './from-config.js';
import { createIngressMetrics } from '../telemetry/ingress-metrics.js';

// `npm run ingress`: the callback receiver alone.
const config = startupConfig('ingress');
const logger = createLogger({ service: 'ingress', level: config.telemetry.logLevel });
// Before the client: its interceptor joins the trace that each callback's span starts.
const tracing = startTracing({ service: 'ingress', otlpEndpoint: config.telemetry.otlpEndpoint });
// A Temporal that does not take the connection ends the ingress in one paragraph (exit 69), as the worker.
const client = await refusesToStart(() => connectClient(config, 'ingress', { warn: (line) => logger.warn(line) }));
const metrics = createIngressMetrics();
const app = ingressFromConfig(config, { client, logger, metrics });
const ops = createIngressOps({ client, metrics, logger });
const inFlight = inFlightRequests(app.server);
await ops.listen(config.ingress.ops);
// INGRESS_HOST: loopback while a callback secret is the sandbox's published one (src/config.ts).
await app.listen({ port: config.ingress.port, host: config.ingress.host });
logger.info(
  {
    host: config.ingress.host,
    port: config.ingress.port,
    callbackUrl: `${config.ingress.publicUrl}/callbacks`,
    ops: `${config.ingress.ops.host}:${config.ingress.ops.port}`,
  },
  'ingress listening (health and metrics on the operations port)',
);

// SIGTERM drains: no new connections, the callbacks in flight answered (fastify answers 503 to a
// request arriving on a kept-alive connection meanwhile, and the provider resends it), for at most
// INGRESS_SHUTDOWN_GRACE; then whatever is left is cut off.
let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  logger.info({ signal, graceMs: config.ingress.shutdownGraceMs, inFlight: inFlight.count() }, 'ingress draining');
  const deadline = setTimeout(() => {
    logger.warn('ingress grace period over: closing the connections left');
    app.server.closeAllConnections();
  }, config.ingress.shutdownGraceMs);
  deadline.unref();
  void app
    .close()
    .then(() => inFlight.settled())
    .then(() => ops.close())
    .then(() => client.connection.close())
    .then(() => tracing.shutdown())
    .then(() => {
      logger.info('ingress stopped');
      process.exit(0);
    });
};
process.once('SIGINT', () => stop('SIGINT'));
process.once('SIGTERM', () => stop('SIGTERM'));
