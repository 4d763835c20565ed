import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { replayFiles } from '../../scripts/replay';

// Histories recorded from real runs (scripts/record-histories.ts) must replay against the
// current workflow code; a breaking change must be caught here, not by running workflows.
Runtime.install({ logger: new DefaultLogger('WARN') });
const histories = ['test/histories/open-wallet.json', 'test/histories/wallet.json'];

describe('replay of recorded histories', () => {
  it('the current workflows replay every recorded history', async () => {
    const results = await replayFiles(histories);
    for (const r of results) assert.equal(r.error, undefined, `${r.file}: ${r.error?.message}`);
    assert.equal(results.length, 2);
  });

  it('a change that reorders what the wallet workflow does fails with DeterminismViolationError', async () => {
    const breaking = fileURLToPath(new URL('../fixtures/breaking-wallet/index.ts', import.meta.url));
    const [result] = await replayFiles(['test/histories/wallet.json'], breaking);
    assert.equal(result?.error?.name, 'DeterminismViolationError', String(result?.error));
  });
});
