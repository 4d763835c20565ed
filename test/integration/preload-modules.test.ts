import assert from 'node:assert/strict';
import { relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { HISTORIES_KEY, replayFiles } from '../../scripts/replay.js';
import { historyFile } from '../../scripts/lib/history-file.js';
import { bundleWorkflows } from '../../scripts/lib/workflow-bundle.js';
import { EncryptionCodec, encryptingDataConverter } from '../../src/temporal/codec.js';
import { workflowInterceptorModules } from '../../worker/create-worker.js';
import { workflowPreloadModules } from '../../worker/preload-modules.js';

// The modules a worker preloads (worker/preload-modules.ts) are evaluated once and deep-frozen by
// the SDK, then shared by every cached workflow. A preloaded module whose objects a workflow writes
// to, or whose module state must be a workflow's own, breaks workflows at run time, not at build.
// The workflow's own error is in the worker's log (the failure it reports is encrypted).
const logged: string[] = [];
Runtime.install({
  logger: new DefaultLogger('WARN', (entry) => logged.push(`${entry.message}: ${String(entry.meta?.error)}`)),
});
const dataConverter = encryptingDataConverter(new EncryptionCodec(Buffer.from(HISTORIES_KEY, 'base64')));
// Runs that go through the ledger, reconciliation, carried ledgers, checks, refusals and every
// process's checks and messages. Each replays in a worker of its own; sharing between workflows
// is what every other integration test exercises, since the test run's bundle preloads the same
// list (scripts/lib/test-run.ts) and many workflows share its worker.
const histories = [
  historyFile('wallet', 'wallet-exact-ledger'),
  historyFile('wallet', 'wallet-carried-v1'),
  historyFile('wallet', 'wallet-reconcile-false-drift-before-exact-ledger'),
  historyFile('wallet', 'open-wallet-exact-ledger'),
  historyFile('wallet', 'open-wallet-local-create'),
  historyFile('kyc', 'kyc-refused'),
  historyFile('checkout', 'checkout-over-limit'),
  historyFile('ach-followup', 'ach-followup'),
  historyFile('onboarding', 'onboarding'),
  historyFile('provisioning', 'provisioning'),
];

describe('preloaded workflow modules', () => {
  it('are in the bundle and loaded into the shared context before any workflow (the list names files that exist)', async () => {
    const code = await bundleWorkflows(workflowInterceptorModules);
    const preload = code.slice(code.indexOf('preloadModules = function'), code.indexOf('importWorkflows = function'));
    assert.ok(preload.length > 0, 'the bundle has no preloadModules function');
    for (const path of workflowPreloadModules) {
      const id = `./${relative(process.cwd(), path)}`;
      assert.ok(preload.includes(`"${id}"`), `${id} is not preloaded: moved or renamed? (worker/preload-modules.ts)`);
    }
  });

  it('frozen, they run the recorded runs of every process unchanged', async () => {
    const results = await replayFiles(histories, undefined, dataConverter);
    for (const r of results) assert.equal(r.error, undefined, `${r.file}: ${r.error?.message}`);
  });

  it('a module that is not safe to freeze breaks those runs: @opentelemetry/api, whose tracer provider is written at registration', async () => {
    // Temporal's own workflow interceptors register one in every workflow (the fixture does the same).
    const otelApi = fileURLToPath(new URL('../fixtures/preload-otel-api.ts', import.meta.url));
    const registers = fileURLToPath(new URL('../fixtures/register-otel-provider.ts', import.meta.url));
    const results = await replayFiles(
      histories.slice(0, 1),
      undefined,
      dataConverter,
      [...workflowInterceptorModules, registers],
      { preloadModules: [...workflowPreloadModules, otelApi] },
    );
    assert.equal(results[0]?.error?.name, 'ReplayError', 'the run replayed with @opentelemetry/api frozen');
    assert.ok(
      logged.some((line) => /object is not extensible|read.only property/.test(line)),
      `no write to a frozen object in the log:\n${logged.join('\n')}`,
    );
  });
});
