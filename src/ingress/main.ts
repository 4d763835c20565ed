import { loadConfig } from '../config.js';
import { connectClient } from '../temporal/connection.js';
import { createLogger } from '../telemetry/logger.js';
import { startTracing } from '../telemetry/tracing.js';
import { createIngress } from './server.js';

// `npm run ingress`: the callback receiver alone.
const config = loadConfig();
const logger = createLogger({ service: 'ingress', level: config.telemetry.logLevel });
// Before the client: its interceptor joins the trace that each callback's span starts.
const tracing = startTracing({ service: 'ingress', otlpEndpoint: config.telemetry.otlpEndpoint });
const client = await connectClient(config);
const app = createIngress({
  client,
  taskQueue: config.temporal.taskQueue,
  secretKey: config.provider.secretKey,
  callbackSecrets: config.ingress.callbackSecrets,
  requestTimeoutMs: config.ingress.requestTimeoutMs,
  maxConnections: config.ingress.maxConnections,
  maxBodyBytes: config.ingress.maxBodyBytes,
  walletPollIntervalMs: config.wallet.pollIntervalMs,
  walletReconcileIntervalMs: config.wallet.reconcileIntervalMs,
  logger,
});
await app.listen({ port: config.ingress.port, host: '0.0.0.0' });
logger.info({ port: config.ingress.port, callbackUrl: `${config.ingress.publicUrl}/callbacks` }, 'ingress listening (metrics at /metrics)');
const stop = () => void app.close().then(() => client.connection.close()).then(() => tracing.shutdown()).then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
