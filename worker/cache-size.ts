// How many workflows a worker keeps cached, from the memory it has. The SDK's own default assumes
// about 1.7 MB of heap per cached workflow and looks at the heap only: when a workflow costs more,
// or the container holds less than the heap may grow to, the cache outgrows the memory and the
// worker dies under load instead of evicting. Pure: worker/memory-limit.ts reads the facts.

const MiB = 1024 * 1024;

/**
 * What one cached workflow costs, with a margin: a wallet, the process that stays cached longest,
 * with a full ledger, and the churn of workflows evicted and replayed (bench/results/figures.md).
 */
export const PER_WORKFLOW_COST = { heapBytes: 0.85 * MiB, rssBytes: 1.5 * 1e6 } as const;
/** What a worker holds before its first workflow: the SDK, the bundle's shared context, activities. */
export const WORKER_RESERVE = { heapBytes: 64 * MiB, rssBytes: 150 * MiB } as const;
/** The share of the heap left to cached workflows; the rest is headroom for the garbage collector. */
export const HEAP_SHARE = 0.8;

export interface MemoryFacts {
  /** WORKER_MEMORY, or the container's cgroup limit; undefined when neither is known. */
  memoryBytes: number | undefined;
  memorySource: 'WORKER_MEMORY' | 'cgroup' | undefined;
  /** V8's heap_size_limit: what NODE_OPTIONS=--max-old-space-size gives every isolate, the workflows' too. */
  heapLimitBytes: number;
  /** WORKER_MAX_CACHED_WORKFLOWS: when set, it wins. */
  override: number | undefined;
}

export interface CacheChoice {
  maxCachedWorkflows: number;
  /** What bounded it. */
  by: 'WORKER_MAX_CACHED_WORKFLOWS' | 'heap' | 'memory' | 'minimum';
  /** The line the worker prints at start. */
  explanation: string;
}

const mb = (bytes: number) => `${Math.round(bytes / MiB)} MiB`;

export function chooseCacheSize(facts: MemoryFacts, cost = PER_WORKFLOW_COST): CacheChoice {
  const heap = `heap ${mb(facts.heapLimitBytes)}`;
  const memory =
    facts.memoryBytes === undefined ? 'memory unknown' : `memory ${mb(facts.memoryBytes)} (${facts.memorySource})`;
  const per = `${(cost.heapBytes / MiB).toFixed(1)} MiB heap and ${(cost.rssBytes / MiB).toFixed(1)} MiB RSS per workflow`;
  if (facts.override !== undefined)
    return {
      maxCachedWorkflows: facts.override,
      by: 'WORKER_MAX_CACHED_WORKFLOWS',
      explanation: `${facts.override} cached workflows: WORKER_MAX_CACHED_WORKFLOWS (${heap}, ${memory})`,
    };
  const byHeap = Math.floor(
    (Math.max(facts.heapLimitBytes - WORKER_RESERVE.heapBytes, 0) * HEAP_SHARE) / cost.heapBytes,
  );
  const byMemory =
    facts.memoryBytes === undefined
      ? Number.POSITIVE_INFINITY
      : Math.floor(Math.max(facts.memoryBytes - WORKER_RESERVE.rssBytes, 0) / cost.rssBytes);
  const chosen = Math.min(byHeap, byMemory);
  // The SDK takes 0 (no cache) or at least 2; a worker this small still runs, evicting often.
  if (chosen < 2)
    return {
      maxCachedWorkflows: 2,
      by: 'minimum',
      explanation: `2 cached workflows, the least that runs: ${heap} and ${memory} hold fewer at ${per}; give the worker more memory`,
    };
  const by = byMemory < byHeap ? 'memory' : 'heap';
  const warning =
    facts.memoryBytes !== undefined && facts.heapLimitBytes > facts.memoryBytes
      ? '; the heap may outgrow the memory: set NODE_OPTIONS=--max-old-space-size below it'
      : '';
  return {
    maxCachedWorkflows: chosen,
    by,
    explanation: `${chosen} cached workflows, bounded by the ${by}: ${heap}, ${memory}, ${per}${warning}`,
  };
}
