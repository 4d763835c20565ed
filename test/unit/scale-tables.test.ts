import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { scaleReport } from '../../bench/scale/report.js';
import type { SizeResult } from '../../bench/scale/size.js';
import { growth, type TableSize, totalBytes } from '../../bench/scale/tables.js';
import { tablesSection } from '../../bench/scale/tables-report.js';

// bench/scale/tables.ts and tables-report.ts: what each table and index of Temporal's databases
// grew by over a size's run, and the report's section saying which dominate per wallet.

const table = (name: string, total: number, rows: number, indexes: Record<string, number> = {}): TableSize => {
  const indexBytes = Object.values(indexes).reduce((a, b) => a + b, 0);
  return { table: name, totalBytes: total, heapBytes: total - indexBytes, indexBytes, liveRows: rows, indexes };
};

describe('growth of the tables over a run', () => {
  it('subtracts before from after, table by table and index by index, keeping only what changed', () => {
    const before = [
      table('history_node', 100, 1, { history_node_pkey: 50 }),
      table('shards', 500, 4, { shards_pkey: 100 }),
    ];
    const after = [
      table('history_node', 1_100, 21, { history_node_pkey: 350 }),
      table('shards', 500, 4, { shards_pkey: 100 }),
      table('timer_info_maps', 300, 10, { timer_info_maps_pkey: 100 }),
    ];
    assert.deepEqual(growth(before, after), [
      { ...table('history_node', 1_000, 20, { history_node_pkey: 300 }) },
      { ...table('timer_info_maps', 300, 10, { timer_info_maps_pkey: 100 }) },
    ]);
    assert.equal(totalBytes(after), 1_900);
  });

  it('counts the dead rows an update left, where the statistics gave them', () => {
    const before = [{ ...table('executions', 1_000, 2), deadRows: 1 }];
    const after = [{ ...table('executions', 9_000, 12), deadRows: 41 }];
    assert.equal(growth(before, after)[0]!.deadRows, 40);
  });
});

describe("the report's section by table and index", () => {
  const sample = (JSON.parse(readFileSync('bench/results/scale.json', 'utf8')) as SizeResult[])[0]!;
  const indexes = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`by_keyword_0${i + 1}`, 1_000 * (i + 1)]));
  const run: SizeResult = {
    ...sample,
    wallets: 10,
    topology: 'single',
    tables: {
      main: [
        { ...table('executions', 20_000, 10, { executions_pkey: 4_000 }), deadRows: 25 },
        table('history_node', 100_000, 40, { history_node_pkey: 10_000 }),
        table('shards', 100, 0),
      ],
      visibility: [table('executions_visibility', 200_000, 20, { ...indexes, executions_visibility_pkey: 500 })],
    },
  };
  const lines = tablesSection([run]);
  const text = lines.join('\n');

  it('lists the largest table first, per wallet, with its rows and what a row holds', () => {
    const main = lines.findIndex((l) => l.startsWith('**main'));
    const rows = lines.slice(main).filter((l) => l.startsWith('| **'));
    assert.match(rows[0]!, /^\| \*\*all tables\*\* \| \| \*\*12,010 B\*\* \|$/);
    assert.match(
      rows[1]!,
      /^\| \*\*history_node\*\* \| a batch of history events .* \*\*10,000 B\*\* \(4\): rows 9,000, indexes 1,000/,
    );
    assert.match(rows[2]!, /^\| \*\*executions\*\* \| one run’s mutable state.* \*\*2,000 B\*\* \(1, 2\.5 dead\)/);
  });

  it('sums a table under 2 % of its database into other tables, naming it', () => {
    assert.match(text, /\| other tables \(1\) \| shards \| 10 B \|/);
  });

  it('names a table’s five largest indexes and sums the rest', () => {
    const vis = lines.slice(lines.findIndex((l) => l.startsWith('**visibility')));
    const named = vis.filter((l) => l.startsWith('| … by_')).map((l) => l.split(' | ')[0]);
    assert.deepEqual(named, [
      '| … by_keyword_08',
      '| … by_keyword_07',
      '| … by_keyword_06',
      '| … by_keyword_05',
      '| … by_keyword_04',
    ]);
    assert.match(text, /\| … its 4 other indexes \| the rest of its indexes, summed \| 650 B \|/);
  });

  it('is left out when no row measured its tables', () => {
    const { tables: _t, ...old } = run;
    assert.deepEqual(tablesSection([old]), []);
  });
});

describe("the report's database trend", () => {
  const sample = (JSON.parse(readFileSync('bench/results/scale.json', 'utf8')) as SizeResult[])[0]!;
  const row = (wallets: number, perWallet: number, tables?: SizeResult['tables']): SizeResult => {
    const { tables: _t, ...rest } = sample;
    return {
      ...rest,
      wallets,
      topology: 'single',
      database: { mainBefore: 0, mainAfter: wallets * perWallet, visibilityBefore: 0, visibilityAfter: 0 },
      ...(tables ? { tables } : {}),
    };
  };
  const one = { main: [], visibility: [] };

  it('fits the rows of one wallet shape, not both, naming them', () => {
    const report = scaleReport([
      row(1_000, 30_000),
      row(100_000, 30_000),
      row(1_000, 15_000, one),
      row(10_000, 15_000, one),
    ]);
    assert.match(
      report,
      /growth against N: 15,000 B per wallet \(slope\), r² 1\.0000, through 1,000, 10,000 wallets \(a wallet as one workflow\)/,
    );
  });

  it('falls back to the two-workflow rows while one size only has the new shape', () => {
    const report = scaleReport([row(1_000, 30_000), row(100_000, 30_000), row(10_000, 15_000, one)]);
    assert.match(
      report,
      /30,000 B per wallet \(slope\), r² 1\.0000, through 1,000, 100,000 wallets \(a wallet as two workflows\)/,
    );
  });
});
