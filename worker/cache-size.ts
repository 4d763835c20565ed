import { LIMITS } from '../workflows/wallet/ledger.js';

// How many workflows a worker keeps cached, from the memory it has. The SDK's own default assumes
// about 1.7 MB of heap per cached workflow and looks at the heap only: when a workflow costs more,
// or the container holds less than the heap may grow to, the cache outgrows the memory and the
// worker dies under load instead of evicting. Pure: worker/memory-limit.ts reads the facts.

const MiB = 1024 * 1024;

/** A wallet's ledger by what it holds: recent entries kept whole, and compact settled records. */
export interface LedgerSize {
  entries: number;
  records: number;
}

/** Bytes: an empty wallet's, and what each recent entry and each settled record adds. */
export interface CostLine {
  base: number;
  perEntry: number;
  perRecord: number;
}

/**
 * What one more cached wallet costs, in bytes, as a line over its ledger, from `npm run bench --
 * --ledger` (bench/results/ledger-memory.md, "The line through them"): the slope of a worker's
 * memory over the wallets it caches, at ledgers of 0, 200 recent entries, 200 with 1,000 and with
 * 10,000 settled records, and the bound. RSS as deployed (every thread collected before a reading)
 * and V8 heap after GC. The base is the empty ledger's, an entry's share comes from the ledger of
 * entries only, and a record's is the least that keeps every measured size at or under the line
 * (bench/ledger-memory.ts, fittedCostLine), so that the sizing falls short at none of them.
 */
export const WALLET_COST_CURVE: { rss: CostLine; heap: CostLine } = {
  rss: { base: 173_991, perEntry: 343, perRecord: 168 },
  heap: { base: 116_653, perEntry: 322, perRecord: 146 },
};

/** What a cached wallet with this ledger costs. */
export function walletCost(ledger: LedgerSize): { heapBytes: number; rssBytes: number } {
  const at = (c: CostLine) => c.base + c.perEntry * ledger.entries + c.perRecord * ledger.records;
  return { heapBytes: at(WALLET_COST_CURVE.heap), rssBytes: at(WALLET_COST_CURVE.rss) };
}

/**
 * The most a wallet's ledger holds: the bound its workflow enforces (workflows/wallet/ledger.ts,
 * LIMITS). Only settled entries leave for records, so pending ones stay whole past the recent
 * entries' count, up to their own bound.
 */
export const LEDGER_BOUND: LedgerSize = {
  entries: Math.max(LIMITS.recentEntries, LIMITS.pendingEntries),
  records: LIMITS.settledRecords,
};

/**
 * What one cached workflow costs: a wallet, the process that stays cached longest, with its ledger
 * at the bound, so that a cache full of the busiest wallets still fits.
 */
export const PER_WORKFLOW_COST = walletCost(LEDGER_BOUND);
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

export function chooseCacheSize(facts: MemoryFacts): CacheChoice {
  const cost = PER_WORKFLOW_COST;
  const heap = `heap ${mb(facts.heapLimitBytes)}`;
  const memory =
    facts.memoryBytes === undefined ? 'memory unknown' : `memory ${mb(facts.memoryBytes)} (${facts.memorySource})`;
  const per = `${(cost.heapBytes / MiB).toFixed(1)} MiB heap and ${(cost.rssBytes / MiB).toFixed(1)} MiB RSS per workflow (a wallet whose ledger is at its bound: ${LEDGER_BOUND.entries} entries, ${LEDGER_BOUND.records} records)`;
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
