import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseByteSize } from '../../src/byte-size.js';
import { readFileSync } from 'node:fs';
import { LEDGER_SIZES } from '../../bench/ledger-memory.js';
import { emptyLedger, LIMITS, record } from '../../workflows/wallet/ledger.js';
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
      // V8's own default heap limit, read off the host and not the container: the memory binds.
      facts({ memoryBytes: 256 * MiB, memorySource: 'cgroup', heapLimitBytes: 2048 * MiB }),
    );
    assert.equal(choice.by, 'memory');
    assert.ok(choice.maxCachedWorkflows >= 2 && choice.maxCachedWorkflows * PER_WORKFLOW_COST.rssBytes < 256 * MiB);
    assert.match(choice.explanation, /bounded by the memory: heap 2048 MiB, memory 256 MiB \(cgroup\)/);
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

  it("sizes for the ledger's own bound, which a wallet reaches with settled records and deposits pending", () => {
    // Confirmed deposits fill the records and the recent entries; pending ones then push the
    // confirmed entries out into records and stay whole past the recent entries' count.
    const ledger = emptyLedger('WA_BOUND');
    const now = Date.now();
    const confirmed = LEDGER_BOUND.records + LIMITS.recentEntries;
    const pending = LEDGER_BOUND.entries;
    for (let i = 0; i < confirmed + pending; i++) {
      const createdAt = now - (confirmed + pending - i) * 60_000;
      const status = i < confirmed ? { status: 'CONFIRMED', confirmedAt: createdAt + 600_000 } : { status: 'PENDING' };
      record(
        ledger,
        {
          id: `TR_BOUND${i}`,
          createdAt,
          source: 'bitcoin:1BoUnD',
          dest: 'wallet:WA_BOUND',
          currency: 'BTC',
          amount: '0.00000001',
          ...status,
        },
        'callback',
        { now },
      );
    }
    assert.ok(LEDGER_BOUND.entries > LIMITS.recentEntries, 'pending entries stay whole past the recent ones');
    assert.equal(ledger.order.length, LEDGER_BOUND.entries, 'the entries a wallet holds whole, all pending');
    assert.equal(Object.keys(ledger.settled).length, LEDGER_BOUND.records, 'the settled records it keeps');
    assert.deepEqual(PER_WORKFLOW_COST, walletCost(LEDGER_BOUND));
  });

  it('assumes no less than the bench measured for any ledger (bench/results/ledger-memory.md)', () => {
    const results = readFileSync('bench/results/ledger-memory.md', 'utf8');
    for (const { name, ledger } of LEDGER_SIZES) {
      const measured = new RegExp(
        `^- ${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: RSS as deployed ([\\d.]+) MB, RSS after a GC [\\d.]+ MB, heap ([\\d.]+) MB`,
        'm',
      ).exec(results);
      assert.ok(measured, `no figures for "${name}" in bench/results/ledger-memory.md`);
      const assumed = walletCost(ledger);
      // The results round to the kB.
      assert.ok(assumed.rssBytes >= Number(measured[1]) * 1e6 - 1_000, `RSS, ledger: ${name}`);
      assert.ok(assumed.heapBytes >= Number(measured[2]) * 1e6 - 1_000, `heap, ledger: ${name}`);
      // And at the bound, which sizes every cache, not much more: a line far above the figures there
      // would shrink every worker's cache for nothing.
      if (ledger === LEDGER_BOUND) {
        assert.ok(assumed.rssBytes <= Number(measured[1]) * 1e6 * 1.1, `RSS at the bound, within 10 %`);
        assert.ok(assumed.heapBytes <= Number(measured[2]) * 1e6 * 1.1, `heap at the bound, within 10 %`);
      }
    }
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
