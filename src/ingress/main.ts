import { startupConfig } from '../required-settings.js';
import { connectClient } from '../temporal/connection.js';
import { createLogger } from '../telemetry/logger.js';
import { startTracing } from '../telemetry/tracing.js';
import { inFlightRequests } from './drain.js';
import { createIngress } from './server.js';

// `npm run ingress`: the callback receiver alone.
const config = startupConfig('ingress');
const logger = createLogger({ service: 'ingress', level: config.telemetry.logLevel });
// Before the client: its interceptor joins the trace that each callback's span starts.
const tracing = startTracing({ service: 'ingress', otlpEndpoint: config.telemetry.otlpEndpoint });
const client = await connectClient(config);
const app = createIngress({
  client,
  taskQueue: config.temporal.taskQueue,
  callbackSecrets: config.ingress.callbackSecrets,
  requestTimeoutMs: config.ingress.requestTimeoutMs,
  maxConnections: config.ingress.maxConnections,
  maxBodyBytes: config.ingress.maxBodyBytes,
  walletPollIntervalMs: config.wallet.pollIntervalMs,
  walletReconcileIntervalMs: config.wallet.reconcileIntervalMs,
  walletPollMaxMs: config.wallet.pollMaxMs,
  logger,
});
const inFlight = inFlightRequests(app.server);
await app.listen({ port: config.ingress.port, host: '0.0.0.0' });
logger.info(
  { port: config.ingress.port, callbackUrl: `${config.ingress.publicUrl}/callbacks` },
  'ingress listening (metrics at /metrics)',
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
    .then(() => client.connection.close())
    .then(() => tracing.shutdown())
    .then(() => {
      logger.info('ingress stopped');
      process.exit(0);
    });
};
process.once('SIGINT', () => stop('SIGINT'));
process.once('SIGTERM', () => stop('SIGTERM'));
