import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DrillRecord, type Expectation } from '../../scripts/lib/drill/record.js';
import { latencyByPhase, phaseTable } from '../../scripts/lib/drill/report.js';

// The drill's figures per phase (test/cluster/temporal-faults.test.ts prints them, and
// docs/deploying.md quotes them): each callback in the phase it was sent in, dropped ones left out.

function recordWith(phases: Array<[string, number]>, counts: Array<Partial<Expectation> & { sentAt: number }>) {
  const record = new DrillRecord();
  for (const [name, at] of phases) record.phases.push({ name, at });
  counts.forEach((c, i) =>
    record.expectations.push({ callback: i + 1, walletId: 'w', txId: `t${i}`, status: 'CONFIRMED', ...c }),
  );
  return record;
}

describe('drill latency by phase', () => {
  it('puts each callback in the phase it was sent in, from a phase start to the next one', () => {
    const record = recordWith(
      [
        ['before', 1_000],
        ['history-1 lost', 2_000],
        ['after', 3_000],
      ],
      [
        { sentAt: 1_000, countedAt: 1_010 },
        { sentAt: 1_999, countedAt: 2_029 },
        { sentAt: 2_000, countedAt: 2_500 },
        { sentAt: 2_100, countedAt: 2_400 },
        { sentAt: 3_500, countedAt: 3_520 },
      ],
    );
    const rows = latencyByPhase(record, 4_000);
    assert.deepEqual(
      rows.map((r) => [r.phase, r.lastedMs, r.counts, r.p50, r.p99]),
      [
        ['before', 1_000, 2, 10, 30],
        ['history-1 lost', 1_000, 2, 300, 500],
        ['after', 1_000, 1, 20, 20],
      ],
    );
  });

  it('leaves out callbacks the sandbox dropped on purpose, those never counted, and those before the first phase', () => {
    const record = recordWith(
      [['before', 1_000]],
      [
        { sentAt: 500, countedAt: 510 },
        { sentAt: 1_100, countedAt: 9_100, fault: 'callback dropped' },
        { sentAt: 1_200 },
        { sentAt: 1_300, countedAt: 1_340, fault: 'callback repeated' },
      ],
    );
    const [row] = latencyByPhase(record, 2_000);
    assert.deepEqual([row!.counts, row!.p50, row!.p99], [1, 40, 40]);
  });

  it('prints a Markdown table, saying none for a phase without a counted callback', () => {
    const record = recordWith(
      [
        ['before', 0],
        ['PostgreSQL restarted', 20_400],
      ],
      [{ sentAt: 100, countedAt: 131.6 }],
    );
    assert.deepEqual(phaseTable(latencyByPhase(record, 41_000)), [
      '| phase | lasted (s) | counts | p50 (ms) | p99 (ms) |',
      '| --- | ---: | ---: | ---: | ---: |',
      '| before | 20 | 1 | 32 | 32 |',
      '| PostgreSQL restarted | 21 | 0 | none | none |',
    ]);
  });
});
