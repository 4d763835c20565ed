import { getHeapStatistics } from 'node:v8';
import type { MemoryFacts } from './cache-size.js';
import { readTrimmed } from './text-file.js';

// What worker/cache-size.ts decides from: WORKER_MEMORY, else the cgroup limit, and the V8 heap limit.

/** cgroup v1 writes "no limit" as a huge number (PAGE_COUNTER_MAX pages): anything above 2^60 is none. */
const NO_LIMIT = 2 ** 60;

export function cgroupMemoryLimit(read: (path: string) => string | undefined = readTrimmed): number | undefined {
  for (const path of ['/sys/fs/cgroup/memory.max', '/sys/fs/cgroup/memory/memory.limit_in_bytes']) {
    const text = read(path)?.trim();
    if (text === undefined || text === 'max') continue;
    const bytes = Number(text);
    if (Number.isFinite(bytes) && bytes > 0 && bytes < NO_LIMIT) return bytes;
  }
  return undefined;
}

export function memoryFacts(settings: { memoryBytes?: number; maxCachedWorkflows?: number }): MemoryFacts {
  const cgroup = settings.memoryBytes === undefined ? cgroupMemoryLimit() : undefined;
  return {
    memoryBytes: settings.memoryBytes ?? cgroup,
    memorySource: settings.memoryBytes !== undefined ? 'WORKER_MEMORY' : cgroup !== undefined ? 'cgroup' : undefined,
    heapLimitBytes: getHeapStatistics().heap_size_limit,
    override: settings.maxCachedWorkflows,
  };
}
