import { randomUUID } from 'node:crypto';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { loadConfig } from '../src/config.js';
import { providerFromConfig } from '../src/provider/from-config.js';
import { createWorker } from '../worker/create-worker.js';

// A worker in a process of its own, so that its resident memory can be read without the bench's:
// it answers "rss" messages (after a full GC) with process.memoryUsage().rss.
Runtime.install({ logger: new DefaultLogger('ERROR') });
const config = loadConfig();
const provider = providerFromConfig(config);
const { worker } = await createWorker({
  config,
  provider,
  workflowBundlePath: process.env.BENCH_BUNDLE,
  extraActivities: { echo: async (v: string) => v },
  overrides: { maxCachedWorkflows: Number(process.env.BENCH_CACHE ?? 1_000), identity: `bench-memory-${randomUUID()}` },
});
process.on('message', (m: string) => {
  if (m === 'rss') {
    for (let i = 0; i < 3; i++) (globalThis as { gc?: () => void }).gc?.();
    process.send!({ rss: process.memoryUsage().rss });
  }
  if (m === 'stop') worker.shutdown();
});
process.send!({ ready: true });
await worker.run();
await provider.close();
process.exit(0);
