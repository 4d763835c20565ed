import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type BundleOptions, DefaultLogger, Runtime } from '@temporalio/worker';

type Configuration = Parameters<NonNullable<BundleOptions['webpackConfigHook']>>[0];
import { historyFromJSON } from '@temporalio/common/lib/proto-utils.js';
import { HISTORIES_DIR, historyFile, recordedHistories } from '../../scripts/lib/history-file.js';
import { PROCESSES } from '../../scripts/lib/message-processes.js';
import { HISTORIES_KEY, replayFiles } from '../../scripts/replay.js';
import { decrypted } from '../helpers/history.js';
import { EncryptionCodec, encryptingDataConverter } from '../../src/temporal/codec.js';
import { untracedWorkflowInterceptorModules } from '../../worker/create-worker.js';

// Histories recorded from real runs (scripts/record-histories.ts), in test/histories/<process>/,
// must replay against the current workflow code; a breaking change must be caught here, not by
// running workflows.
Runtime.install({ logger: new DefaultLogger('WARN') });
// The recorded histories are encrypted with the fixture key, as every payload is in a deployment.
const codec = new EncryptionCodec(Buffer.from(HISTORIES_KEY, 'base64'));
const dataConverter = encryptingDataConverter(codec);
// Every process's folder, walked: a history added to one is replayed without being named here.
const histories = recordedHistories();

/** A bundle option that resolves the imports `swap` picks to a stub from test/fixtures instead. */
function swapImport(
  stubName: string,
  swap: (request: { request: string; context: string }) => boolean,
): Pick<BundleOptions, 'webpackConfigHook'> {
  const stub = fileURLToPath(new URL(`../fixtures/${stubName}.ts`, import.meta.url));
  return {
    webpackConfigHook: (config: Configuration): Configuration => ({
      ...config,
      plugins: [
        ...(config.plugins ?? []),
        {
          apply(compiler) {
            compiler.hooks.normalModuleFactory.tap(stubName, (factory) => {
              factory.hooks.beforeResolve.tap(stubName, (request) => {
                if (swap(request)) request.request = stub;
              });
            });
          },
        },
      ],
    }),
  };
}

describe('replay of recorded histories', () => {
  it("each is found by its process's name: test/histories/<process>/, the process whose workflow it ran", () => {
    const processOf = new Map(PROCESSES.flatMap((p) => p.workflows.map((wf) => [wf.type as string, p.process])));
    const misplaced = histories.flatMap((file) => {
      const folders = relative(HISTORIES_DIR, file).split(sep).slice(0, -1);
      const history = historyFromJSON(JSON.parse(readFileSync(file, 'utf8')));
      const started = history.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name;
      const owner = processOf.get(started ?? '');
      return folders.length === 1 && folders[0] === owner ? [] : [`${file}: ${started} is ${owner}'s`];
    });
    assert.deepEqual(misplaced, []);
    assert.deepEqual(
      [...new Set(histories.map((file) => relative(HISTORIES_DIR, file).split(sep)[0]))].sort(),
      ['ach-followup', 'checkout', 'kyc', 'onboarding', 'provisioning', 'wallet'],
      'every process has its recorded histories',
    );
  });

  it('the current workflows replay every recorded history', async () => {
    const results = await replayFiles(histories, undefined, dataConverter);
    for (const r of results) assert.equal(r.error, undefined, `${r.file}: ${r.error?.message}`);
    assert.equal(results.length, histories.length, 'every recorded history was replayed');
    assert.ok(histories.length >= 39, `${histories.length} histories in ${HISTORIES_DIR}/<process>/`);
  });

  it('the bundle without the tracing interceptors replays them too (a worker switches bundles when tracing is turned on or off)', async () => {
    const results = await replayFiles(histories, undefined, dataConverter, untracedWorkflowInterceptorModules);
    for (const r of results) assert.equal(r.error, undefined, `${r.file}: ${r.error?.message}`);
  });

  it('bundles the workflow code once for all the files, and a file that is not a history fails alone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payflows-replay-'));
    const notAHistory = join(dir, 'not-a-history.json');
    writeFileSync(notAHistory, '{"events": "none"');
    let bundles = 0;
    const counted: Pick<BundleOptions, 'webpackConfigHook'> = {
      webpackConfigHook: (config) => {
        bundles += 1;
        return config;
      },
    };
    const files = [historyFile('kyc', 'kyc'), notAHistory, historyFile('wallet', 'open-wallet-patches-as-one-2')];
    try {
      const results = await replayFiles(files, undefined, dataConverter, undefined, counted);
      assert.equal(bundles, 1, 'one bundle for every file');
      assert.deepEqual(
        results.map((r) => ({ file: r.file, failed: r.error !== undefined })),
        files.map((file) => ({ file, failed: file === notAHistory })),
      );
      assert.match(results[1]!.error!.message, /JSON/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('without the reminder loops kept for runs from before reminders-while-owed, those runs fail to replay', async () => {
    // Bundles the workflows with lib/legacy-reminders.ts swapped for loops that do nothing.
    const swapLegacyReminders = swapImport('no-legacy-reminders', ({ request }) =>
      request.endsWith('/legacy-reminders.js'),
    );
    const before = [
      historyFile('ach-followup', 'ach-reminders-before-shared-reminders'),
      historyFile('onboarding', 'onboarding-reminders-before-shared-reminders'),
    ];
    const results = await replayFiles(before, undefined, dataConverter, undefined, swapLegacyReminders);
    assert.deepEqual(
      results.map((result) => ({ file: result.file, error: result.error?.name })),
      before.map((file) => ({ file, error: 'DeterminismViolationError' })),
    );
    // The same histories replay with the loops in place (the first test): the stub is what breaks them.
  });

  it('a change that reorders what the wallet workflow does fails with DeterminismViolationError', async () => {
    const breaking = fileURLToPath(new URL('../fixtures/breaking-wallet/index.ts', import.meta.url));
    const [result] = await replayFiles([historyFile('wallet', 'wallet')], breaking, dataConverter);
    assert.equal(result?.error?.name, 'DeterminismViolationError', String(result?.error));
  });

  // Recorded on the code with exact amounts: fresh runs, a run that continued as new, a run that
  // starts from a version-2 ledger (numbers, a horizon and cursor past now) carried from before,
  // and a follower that ended UNKNOWN_WALLET (before its result carried the ledger).
  const exactLedger = [
    'wallet-exact-ledger',
    'wallet-continued-exact-ledger',
    'wallet-carried-v2',
    'wallet-unknown-before-carried-result',
  ].map((name) => historyFile('wallet', name));

  it('the wallet histories recorded since wallet-exact-ledger took its branch and signal decimal strings', async () => {
    for (const file of exactLedger) {
      const history = await decrypted(historyFromJSON(JSON.parse(readFileSync(file, 'utf8'))), codec);
      const markers = history.events!.flatMap((event) => {
        const details = event.markerRecordedEventAttributes?.details;
        return details?.['patch-data']
          ? [JSON.parse(Buffer.from(details['patch-data'].payloads![0]!.data!).toString())]
          : [];
      }) as Array<{ id: string }>;
      assert.ok(
        markers.some((marker) => marker.id === 'wallet-exact-ledger'),
        `${file}: no wallet-exact-ledger marker`,
      );
      const amounts = history.events!.flatMap((event) =>
        (event.workflowExecutionSignaledEventAttributes?.input?.payloads ?? []).map(
          (payload) => (JSON.parse(Buffer.from(payload.data!).toString()) as { amount: unknown }).amount,
        ),
      );
      assert.ok(amounts.length > 0, `${file}: no signalled transaction`);
      for (const amount of amounts) assert.equal(typeof amount, 'string', `${file}: amount ${String(amount)}`);
    }
  });

  it('without the wallet-exact-ledger branch (as on a worker from before it), those runs fail to replay', async () => {
    // The wallet's imports of the register, not the stub's own.
    const swapPatches = swapImport(
      'no-exact-ledger-patch',
      ({ request, context }) => request.endsWith('/patch-ids.js') && context.endsWith('/workflows/wallet'),
    );
    const results = await replayFiles(exactLedger, undefined, dataConverter, undefined, swapPatches);
    assert.deepEqual(
      results.map((result) => ({ file: result.file, error: result.error?.name })),
      exactLedger.map((file) => ({ file, error: 'DeterminismViolationError' })),
    );
  });

  it('an opening recorded with open-wallet-local-create fails to replay on a worker from before it', async () => {
    const swapPatches = swapImport(
      'no-local-create-patch',
      ({ request, context }) => request.endsWith('/patch-ids.js') && context.endsWith('/workflows/wallet'),
    );
    const file = historyFile('wallet', 'open-wallet-local-create');
    const [result] = await replayFiles([file], undefined, dataConverter, undefined, swapPatches);
    assert.equal(result?.error?.name, 'DeterminismViolationError', String(result?.error));
  });

  for (const marker of ['patches-as-one', 'patches-as-one-2']) {
    it(`runs recorded with wallet-${marker} fail to replay on a worker from before it`, async () => {
      const swapPatches = swapImport(
        `no-${marker}`,
        ({ request, context }) => request.endsWith('/patch-ids.js') && context.endsWith('/workflows/wallet'),
      );
      const recorded = [`open-wallet-${marker}`, `open-wallet-${marker}-continued`, `wallet-${marker}-next-run`];
      const files = recorded.map((name) => historyFile('wallet', name));
      const results = await replayFiles(files, undefined, dataConverter, undefined, swapPatches);
      assert.deepEqual(
        results.map((result) => ({ file: result.file, error: result.error?.name })),
        files.map((file) => ({ file, error: 'DeterminismViolationError' })),
      );
    });
  }

  it("with the watch's first wait kept for every run, runs from before wallet-patches-as-one-2 fail to replay; runs with it replay", async () => {
    // Recorded on wallet-patches-as-one: its callbacks in the first wait cancelled that wait's timer.
    const before = historyFile('wallet', 'open-wallet-patches-as-one');
    const withIt = historyFile('wallet', 'open-wallet-patches-as-one-2');
    const swapSchedule = swapImport(
      'first-wait-always-kept',
      ({ request, context }) => request.endsWith('/poll-schedule.js') && context.endsWith('/workflows/wallet'),
    );
    const results = await replayFiles([before, withIt], undefined, dataConverter, undefined, swapSchedule);
    assert.deepEqual(
      results.map((result) => ({ file: result.file, error: result.error?.name })),
      [
        { file: before, error: 'DeterminismViolationError' },
        { file: withIt, error: undefined },
      ],
    );
  });

  it('without the follower kept for runs from before wallet-quiet-polling, those runs fail to replay', async () => {
    // Wallet runs without the marker: each takes wallet/legacy-polling.ts, and with today's loop in
    // its place (as if the module had been deleted too early) none replays; a run with the marker
    // replays with the same bundle, so the stub breaks only the runs from before.
    const before = [
      'wallet',
      'wallet-carried-v1',
      'wallet-before-quiet-polling',
      'wallet-continued-before-quiet-polling',
    ];
    const files = [...before, 'wallet-quiet-polling'].map((name) => historyFile('wallet', name));
    const results = await replayFiles(
      files,
      undefined,
      dataConverter,
      undefined,
      swapImport('no-legacy-polling', ({ request }) => request.endsWith('/legacy-polling.js')),
    );
    assert.deepEqual(
      results.map((result) => ({ file: result.file, failed: result.error !== undefined })),
      files.map((file) => ({ file, failed: !file.endsWith('/wallet-quiet-polling.json') })),
    );
    // Each fails for its commands: a nondeterminism error, or the SDK's timer machine refusing an event.
    for (const result of results.slice(0, before.length))
      assert.match(result.error!.message, /nondeterminism|TimerMachine/i, `${result.file}: ${result.error!.message}`);
  });
});
