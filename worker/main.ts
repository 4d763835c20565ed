import { loadConfig } from '../src/config.js';
import { providerFromConfig } from '../src/provider/from-config.js';
import { createWorker } from './create-worker.js';

// `npm run worker`: runs the workflows and activities until SIGINT/SIGTERM, then drains.
const config = loadConfig();
const provider = providerFromConfig(config);
const { worker, connection } = await createWorker({ config, provider });
console.log(`worker polling task queue ${config.temporal.taskQueue}; provider ${config.provider.baseUrl}`);
await worker.run();
await provider.close();
await connection.close();
