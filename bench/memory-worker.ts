import { randomUUID } from 'node:crypto';
import { Session } from 'node:inspector/promises';
import { getHeapStatistics } from 'node:v8';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { loadConfig } from '../src/config.js';
import { startWorker, stopStack } from '../scripts/lib/stack.js';
import { threadHeap } from './thread-heap.js';

// A worker in a process of its own, so that its memory can be read without the bench's: it answers
// "memory" messages, after full GCs of the main thread, with its RSS and the main isolate's heap in
// use (which holds the workflows only with BENCH_DEBUG_MODE; otherwise they live in a worker thread).
// With BENCH_COLLECT_THREADS=1 (and the workflows in their thread) the worker threads are
// collected too, through the process's own inspector, and the heap is summed over every thread.
Runtime.install({ logger: new DefaultLogger('ERROR') });
const stops: Parameters<typeof stopStack>[0] = [];
await startWorker(
  loadConfig(),
  {
    workflowBundlePath: process.env.BENCH_BUNDLE,
    extraActivities: { echo: async (v: string) => v },
    overrides: {
      maxCachedWorkflows: Number(process.env.BENCH_CACHE ?? 1_000),
      identity: `bench-memory-${randomUUID()}`,
      // The workflows in the main thread: its heap is the one this process can collect and read.
      debugMode: process.env.BENCH_DEBUG_MODE === '1',
    },
  },
  stops,
);
const collectThreads = process.env.BENCH_COLLECT_THREADS === '1' && process.env.BENCH_DEBUG_MODE !== '1';
const threads = collectThreads ? await threadsOf(new Session()) : undefined;
process.on('message', (m: string) => {
  if (m === 'memory') {
    for (let i = 0; i < 3; i++) (globalThis as { gc?: () => void }).gc?.();
    void (threads ? threads.collectedHeapBytes() : Promise.resolve(getHeapStatistics().used_heap_size)).then((heap) =>
      process.send!({ rss: process.memoryUsage().rss, heap }),
    );
  }
  if (m === 'stop') void stopStack(stops).then(() => process.exit(0));
});
process.send!({ ready: true });

function threadsOf(session: Session) {
  session.connect();
  return threadHeap({
    post: (method, params) => session.post(method, params),
    on: (event, listener) =>
      session.on(event, (message: { params: Record<string, unknown> }) => listener(message.params)),
  });
}
