import { loadConfig } from '../config.js';
import { createSandbox } from './server.js';

// `npm run sandbox`: the provider sandbox alone.
const config = loadConfig();
const sandbox = createSandbox({
  apiKey: config.provider.apiKey,
  secretKey: config.provider.secretKey,
  stateFile: config.sandbox.stateFile ?? '.data/sandbox.json',
});
const url = await sandbox.listen(config.sandbox.port, config.sandbox.host);
console.log(`sandbox provider listening on ${url} (operator routes under ${url}/sandbox/)`);
const stop = () => void sandbox.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
