import { loadConfig } from '../config.js';
import { connectClient } from '../temporal/connection.js';
import { createIngress } from './server.js';

// `npm run ingress`: the callback receiver alone.
const config = loadConfig();
const client = await connectClient(config);
const app = createIngress({
  client,
  taskQueue: config.temporal.taskQueue,
  secretKey: config.provider.secretKey,
  maxBodyBytes: config.ingress.maxBodyBytes,
  walletPollIntervalMs: config.wallet.pollIntervalMs,
  logger: true,
});
await app.listen({ port: config.ingress.port, host: '0.0.0.0' });
console.log(`ingress listening on port ${config.ingress.port}; the provider should call ${config.ingress.publicUrl}/callbacks`);
const stop = () => void app.close().then(() => client.connection.close()).then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
