import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { replayFiles } from '../../scripts/replay';

// Histories recorded from real runs (scripts/record-histories.ts) must replay against the
// current workflow code; a breaking change must be caught here, not by running workflows.
Runtime.install({ logger: new DefaultLogger('WARN') });
const histories = readdirSync('test/histories').filter((f) => f.endsWith('.json')).map((f) => join('test/histories', f));

describe('replay of recorded histories', () => {
  it('the current workflows replay every recorded history', async () => {
    const results = await replayFiles(histories);
    for (const r of results) assert.equal(r.error, undefined, `${r.file}: ${r.error?.message}`);
    assert.ok(results.length >= 4, `${results.length} histories replayed`);
  });

  it('a change that reorders what the wallet workflow does fails with DeterminismViolationError', async () => {
    const breaking = fileURLToPath(new URL('../fixtures/breaking-wallet/index.ts', import.meta.url));
    const [result] = await replayFiles(['test/histories/wallet.json'], breaking);
    assert.equal(result?.error?.name, 'DeterminismViolationError', String(result?.error));
  });
});
