import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { scaleReport } from '../../bench/scale/report.js';
import type { SizeResult } from '../../bench/scale/size.js';
import { byRun, topologiesSetting } from '../../bench/scale/topology.js';

// bench/scale/report.ts and topology.ts: each size on each of the Temporal server's topologies,
// side by side, the topology named in each row; a row without a topology reads as the single
// process.

const saved = JSON.parse(readFileSync('bench/results/scale.json', 'utf8')) as SizeResult[];
const sample = saved.find((r) => r.wallets === 1_000)!;
const at = (wallets: number, topology: SizeResult['topology'], p99: number): SizeResult => ({
  ...sample,
  wallets,
  topology,
  callbacks: { ...sample.callbacks, p99 },
  temporal: { rssIdleEmpty: 200e6, rssWithWallets: 300e6, processes: topology === 'services' ? 8 : 1 },
  load: { mean: 3.25, max: 7 },
});

describe("the scale run's report", () => {
  const rows = [
    at(10_000, 'services', 222),
    at(1_000, 'services', 111),
    at(10_000, 'single', 22),
    at(1_000, undefined, 11),
  ];
  const report = scaleReport(rows);
  const side = report.slice(report.indexOf('## Side by side'), report.indexOf('## Figures')).split('\n');

  it('gives each size a row on each topology, in the run order, the topology named in each', () => {
    const named = side.filter((l) => /^\| [\d,]+ \|/.test(l)).map((l) => l.split(' | ').slice(0, 2).join(' | '));
    assert.deepEqual(named, [
      '| 1,000 | single process',
      '| 1,000 | separate services',
      '| 10,000 | single process',
      '| 10,000 | separate services',
    ]);
    assert.ok(side.some((l) => l.startsWith('| 10,000 | separate services |') && l.includes('/ 222 ms')));
    assert.ok(side.some((l) => l.startsWith('| 1,000 | separate services |') && l.includes('300 MB (8)')));
  });

  it('names the topology over each column of the full table, and fits a line per topology', () => {
    assert.match(report, /\| figure \| 1,000 wallets, single process \| 1,000 wallets, separate services \| 10,000/);
    assert.match(report, /On the single process \(1,000, 10,000 wallets\)/);
    assert.match(report, /On the separate services \(1,000, 10,000 wallets\)/);
  });

  it('sets each row’s database per wallet, main and visibility together, beside its goal: half of what two workflows took at that size and topology', () => {
    const measured = (wallets: number, topology: SizeResult['topology'], bytes: [number, number]) => ({
      ...at(wallets, topology, 11),
      bytesPerWallet: bytes[0],
      visibilityBytesPerWallet: bytes[1],
    });
    const line = scaleReport([
      measured(1_000, 'single', [25_000, 22_000]),
      measured(1_000, 'services', [25_000, 21_000]),
      measured(10_000, 'single', [20_000, 14_000]),
      measured(20_000, 'single', [20_000, 14_000]),
    ])
      .split('\n')
      .find((l) => l.startsWith('| **DB bytes per wallet, main + visibility**'));
    assert.equal(
      line,
      '| **DB bytes per wallet, main + visibility** (goal: at most half of two workflows’ at the size) | **47,000 B** ✓ (≤ 47,108) | **46,000 B** ✗ (≤ 45,851) | **34,000 B** ✓ (≤ 34,737) | **34,000 B** (no goal) |',
    );
  });

  it('says "not recorded" where a row lacks a figure', () => {
    const { temporal: _t, load: _l, ...before } = at(1_000, undefined, 11);
    const old = scaleReport([before]);
    assert.match(old, /\| 1,000 \| single process \|.*\| not recorded \|.*\| not recorded \|/);
  });
});

describe("the scale run's topologies", () => {
  it('measures both unless SCALE_TOPOLOGIES says, always single first', () => {
    assert.deepEqual(topologiesSetting({}), ['single', 'services']);
    assert.deepEqual(topologiesSetting({ SCALE_TOPOLOGIES: 'services' }), ['services']);
    assert.deepEqual(topologiesSetting({ SCALE_TOPOLOGIES: 'services,single' }), ['single', 'services']);
  });

  it('refuses an unknown or repeated topology, naming the setting', () => {
    for (const raw of ['cluster', 'single,single', 'single,'])
      assert.throws(
        () => topologiesSetting({ SCALE_TOPOLOGIES: raw }),
        new RegExp(`SCALE_TOPOLOGIES takes .*"${raw}"`),
      );
  });

  it('orders results by size, then the single process before the services', () => {
    const order = [at(10_000, 'single', 0), at(1_000, 'services', 0), at(1_000, undefined, 0)].sort(byRun);
    assert.deepEqual(
      order.map((r) => [r.wallets, r.topology]),
      [
        [1_000, undefined],
        [1_000, 'services'],
        [10_000, 'single'],
      ],
    );
  });
});
