import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseByteSize } from '../../src/byte-size.js';
import { LIMITS } from '../../workflows/wallet/ledger.js';
import {
  chooseCacheSize,
  LEDGER_BOUND,
  type MemoryFacts,
  PER_WORKFLOW_COST,
  WALLET_COST_CURVE,
  walletCost,
  WORKER_RESERVE,
} from '../../worker/cache-size.js';
import { cgroupMemoryLimit } from '../../worker/memory-limit.js';

// The worker sizes its workflow cache from the memory it has (worker/cache-size.ts), so that the
// cache never outgrows it: a full cache evicts, it does not kill the worker.

const MiB = 1024 * 1024;
const facts = (over: Partial<MemoryFacts>): MemoryFacts => ({
  memoryBytes: undefined,
  memorySource: undefined,
  heapLimitBytes: 2048 * MiB,
  override: undefined,
  ...over,
});

describe('the workflow cache sized from memory', () => {
  it('WORKER_MAX_CACHED_WORKFLOWS wins over any measure', () => {
    const choice = chooseCacheSize(facts({ override: 7, memoryBytes: 256 * MiB, memorySource: 'cgroup' }));
    assert.equal(choice.maxCachedWorkflows, 7);
    assert.equal(choice.by, 'WORKER_MAX_CACHED_WORKFLOWS');
    assert.match(choice.explanation, /WORKER_MAX_CACHED_WORKFLOWS/);
  });

  it('a container of 256 MiB bounds the cache by its memory, so that the cached workflows fit in it', () => {
    const choice = chooseCacheSize(
      facts({ memoryBytes: 256 * MiB, memorySource: 'cgroup', heapLimitBytes: 176 * MiB }),
    );
    assert.equal(choice.by, 'memory');
    assert.ok(choice.maxCachedWorkflows >= 2 && choice.maxCachedWorkflows * PER_WORKFLOW_COST.rssBytes < 256 * MiB);
    assert.match(choice.explanation, /bounded by the memory: heap 176 MiB, memory 256 MiB \(cgroup\)/);
  });

  it('without a known memory, the heap bounds it, leaving the collector its headroom', () => {
    const choice = chooseCacheSize(facts({ heapLimitBytes: 1024 * MiB }));
    assert.equal(choice.by, 'heap');
    assert.ok(choice.maxCachedWorkflows * PER_WORKFLOW_COST.heapBytes < 0.85 * 1024 * MiB);
    assert.match(choice.explanation, /memory unknown/);
  });

  it('grows with the memory given, WORKER_MEMORY named as the source', () => {
    const small = chooseCacheSize(facts({ memoryBytes: 512 * MiB, memorySource: 'WORKER_MEMORY' }));
    const large = chooseCacheSize(facts({ memoryBytes: 1536 * MiB, memorySource: 'WORKER_MEMORY' }));
    assert.ok(large.maxCachedWorkflows > 3 * small.maxCachedWorkflows);
    assert.match(small.explanation, /\(WORKER_MEMORY\)/);
  });

  it('a heap allowed past the memory is pointed out', () => {
    const choice = chooseCacheSize(
      facts({ memoryBytes: 1024 * MiB, memorySource: 'cgroup', heapLimitBytes: 4096 * MiB }),
    );
    assert.match(choice.explanation, /NODE_OPTIONS=--max-old-space-size/);
  });

  it('too little memory still runs with the least cache the SDK takes, and says to give it more', () => {
    const choice = chooseCacheSize(facts({ memoryBytes: 128 * MiB, memorySource: 'cgroup' }));
    assert.deepEqual([choice.maxCachedWorkflows, choice.by], [2, 'minimum']);
    assert.match(choice.explanation, /give the worker more memory/);
  });
});

describe("a cached wallet's cost by its ledger", () => {
  const empty = { entries: 0, records: 0 };
  const goal = { entries: 200, records: 1_000 };

  it('grows with the entries and the records it holds, from the empty wallet the bench measured', () => {
    assert.deepEqual(walletCost(empty), {
      heapBytes: WALLET_COST_CURVE.heap.base,
      rssBytes: WALLET_COST_CURVE.rss.base,
    });
    for (const figure of ['heapBytes', 'rssBytes'] as const) {
      assert.ok(walletCost({ entries: 200, records: 0 })[figure] > walletCost(empty)[figure]);
      assert.ok(walletCost(goal)[figure] > walletCost({ entries: 200, records: 0 })[figure]);
      assert.ok(walletCost(LEDGER_BOUND)[figure] > walletCost(goal)[figure]);
    }
  });

  it("sizes for the ledger's own bound: the most entries and records a wallet's run keeps", () => {
    assert.deepEqual(LEDGER_BOUND, { entries: LIMITS.recentEntries, records: LIMITS.settledRecords });
    assert.deepEqual(PER_WORKFLOW_COST, walletCost(LEDGER_BOUND));
  });

  it('a cache sized from a memory holds that many wallets at the bound within it, and fewer than wallets of the goal would fit', () => {
    for (const memory of [512 * MiB, 2048 * MiB]) {
      const { maxCachedWorkflows: cache } = chooseCacheSize(
        facts({ memoryBytes: memory, memorySource: 'WORKER_MEMORY', heapLimitBytes: 8192 * MiB }),
      );
      const room = memory - WORKER_RESERVE.rssBytes;
      assert.ok(cache * walletCost(LEDGER_BOUND).rssBytes <= room, `${cache} full wallets in ${memory / MiB} MiB`);
      assert.ok((cache + 1) * walletCost(LEDGER_BOUND).rssBytes > room, 'and no more than fit');
      assert.ok(cache < room / walletCost(goal).rssBytes);
    }
  });
});

describe('the memory a container has', () => {
  const files = (map: Record<string, string>) => (path: string) => map[path];
  it('reads cgroup v2, then v1; "max" and v1\'s huge number mean no limit', () => {
    assert.equal(cgroupMemoryLimit(files({ '/sys/fs/cgroup/memory.max': '268435456\n' })), 256 * MiB);
    assert.equal(cgroupMemoryLimit(files({ '/sys/fs/cgroup/memory.max': 'max\n' })), undefined);
    assert.equal(cgroupMemoryLimit(files({ '/sys/fs/cgroup/memory/memory.limit_in_bytes': '536870912' })), 512 * MiB);
    assert.equal(
      cgroupMemoryLimit(files({ '/sys/fs/cgroup/memory/memory.limit_in_bytes': '9223372036854771712' })),
      undefined,
    );
    assert.equal(cgroupMemoryLimit(files({})), undefined);
  });

  it('WORKER_MEMORY is written as Kubernetes or Docker write it', () => {
    assert.equal(parseByteSize('512Mi'), 512 * MiB);
    assert.equal(parseByteSize('512m'), 512 * MiB);
    assert.equal(parseByteSize('1Gi'), 1024 * MiB);
    assert.equal(parseByteSize('1G'), 1e9);
    assert.equal(parseByteSize('268435456'), 256 * MiB);
    assert.throws(() => parseByteSize('lots'), /512Mi/);
    assert.throws(() => parseByteSize('0'), /is not a memory size/);
  });
});
