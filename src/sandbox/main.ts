import { loadConfig, SANDBOX_CREDENTIALS } from '../config.js';
import { refusesToStart } from '../startup.js';
import { createLogger } from '../telemetry/logger.js';
import { createSandbox } from './server.js';

// `npm run sandbox`: the provider sandbox alone.
// A bad setting is one paragraph and exit 78, as for every other process (it never connects to Temporal).
const config = await refusesToStart(() => loadConfig());
const logger = createLogger({ service: 'sandbox', level: config.telemetry.logLevel });
const sandbox = createSandbox({
  // The sandbox serves its published master keys unless others are given.
  apiKey: config.provider.apiKey ?? SANDBOX_CREDENTIALS.apiKey,
  secretKey: config.provider.secretKey ?? SANDBOX_CREDENTIALS.secretKey,
  stateFile: config.sandbox.stateFile,
});
const url = await sandbox.listen(config.sandbox.port, config.sandbox.host);
logger.info({ url, operatorRoutes: `${url}/sandbox/` }, 'sandbox provider listening');
const stop = () => void sandbox.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
