import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type BundleOptions, DefaultLogger, Runtime } from '@temporalio/worker';

type Configuration = Parameters<NonNullable<BundleOptions['webpackConfigHook']>>[0];
import { HISTORIES_KEY, replayFiles } from '../../scripts/replay.js';
import { EncryptionCodec, encryptingDataConverter } from '../../src/temporal/codec.js';
import { untracedWorkflowInterceptorModules } from '../../worker/create-worker.js';

// Histories recorded from real runs (scripts/record-histories.ts) must replay against the
// current workflow code; a breaking change must be caught here, not by running workflows.
Runtime.install({ logger: new DefaultLogger('WARN') });
// The recorded histories are encrypted with the fixture key, as every payload is in a deployment.
const dataConverter = encryptingDataConverter(new EncryptionCodec(Buffer.from(HISTORIES_KEY, 'base64')));
const histories = readdirSync('test/histories')
  .filter((f) => f.endsWith('.json'))
  .map((f) => join('test/histories', f));

describe('replay of recorded histories', () => {
  it('the current workflows replay every recorded history', async () => {
    const results = await replayFiles(histories, undefined, dataConverter);
    for (const r of results) assert.equal(r.error, undefined, `${r.file}: ${r.error?.message}`);
    assert.equal(results.length, histories.length, 'every recorded history was replayed');
    assert.ok(histories.length >= 25, `${histories.length} histories in test/histories`);
  });

  it('the bundle without the tracing interceptors replays them too (a worker switches bundles when tracing is turned on or off)', async () => {
    const results = await replayFiles(histories, undefined, dataConverter, untracedWorkflowInterceptorModules);
    for (const r of results) assert.equal(r.error, undefined, `${r.file}: ${r.error?.message}`);
  });

  it('without the reminder loops kept for runs from before reminders-while-owed, those runs fail to replay', async () => {
    // Bundles the workflows with lib/legacy-reminders.ts swapped for loops that do nothing.
    const stub = fileURLToPath(new URL('../fixtures/no-legacy-reminders.ts', import.meta.url));
    const swapLegacyReminders = (config: Configuration): Configuration => ({
      ...config,
      plugins: [
        ...(config.plugins ?? []),
        {
          apply(compiler) {
            compiler.hooks.normalModuleFactory.tap('no-legacy-reminders', (factory) => {
              factory.hooks.beforeResolve.tap('no-legacy-reminders', (request) => {
                if (request.request.endsWith('/legacy-reminders.js')) request.request = stub;
              });
            });
          },
        },
      ],
    });
    const before = ['ach-reminders-before-shared-reminders', 'onboarding-reminders-before-shared-reminders'];
    const results = await replayFiles(
      before.map((name) => `test/histories/${name}.json`),
      undefined,
      dataConverter,
      undefined,
      { webpackConfigHook: swapLegacyReminders },
    );
    assert.deepEqual(
      results.map((result) => ({ file: result.file, error: result.error?.name })),
      before.map((name) => ({ file: `test/histories/${name}.json`, error: 'DeterminismViolationError' })),
    );
    // The same histories replay with the loops in place (the first test): the stub is what breaks them.
  });

  it('a change that reorders what the wallet workflow does fails with DeterminismViolationError', async () => {
    const breaking = fileURLToPath(new URL('../fixtures/breaking-wallet/index.ts', import.meta.url));
    const [result] = await replayFiles(['test/histories/wallet.json'], breaking, dataConverter);
    assert.equal(result?.error?.name, 'DeterminismViolationError', String(result?.error));
  });
});
