import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { HISTORIES_KEY, replayFiles } from '../../scripts/replay.js';
import { EncryptionCodec, encryptingDataConverter } from '../../src/temporal/codec.js';
import { untracedWorkflowInterceptorModules } from '../../worker/create-worker.js';

// Histories recorded from real runs (scripts/record-histories.ts) must replay against the
// current workflow code; a breaking change must be caught here, not by running workflows.
Runtime.install({ logger: new DefaultLogger('WARN') });
// The recorded histories are encrypted with the fixture key, as every payload is in a deployment.
const dataConverter = encryptingDataConverter(new EncryptionCodec(Buffer.from(HISTORIES_KEY, 'base64')));
const histories = readdirSync('test/histories').filter((f) => f.endsWith('.json')).map((f) => join('test/histories', f));

describe('replay of recorded histories', () => {
  it('the current workflows replay every recorded history', async () => {
    const results = await replayFiles(histories, undefined, dataConverter);
    for (const r of results) assert.equal(r.error, undefined, `${r.file}: ${r.error?.message}`);
    assert.ok(results.length >= 4, `${results.length} histories replayed`);
  });

  it('the bundle without the tracing interceptors replays them too (a worker switches bundles when tracing is turned on or off)', async () => {
    const results = await replayFiles(histories, undefined, dataConverter, untracedWorkflowInterceptorModules);
    for (const r of results) assert.equal(r.error, undefined, `${r.file}: ${r.error?.message}`);
  });

  it('a change that reorders what the wallet workflow does fails with DeterminismViolationError', async () => {
    const breaking = fileURLToPath(new URL('../fixtures/breaking-wallet/index.ts', import.meta.url));
    const [result] = await replayFiles(['test/histories/wallet.json'], breaking, dataConverter);
    assert.equal(result?.error?.name, 'DeterminismViolationError', String(result?.error));
  });
});
