import { readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { DataConverter } from '@temporalio/common';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils.js';
import { loadConfig } from '../src/config.js';
import { codecFromConfig, encryptingDataConverter } from '../src/temporal/codec.js';
import { type BundleOptions, DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { replaySinks } from '../src/telemetry/tracing.js';
import { workflowInterceptorModules, workflowsPath } from '../worker/create-worker.js';
import { workflowPreloadModules } from '../worker/preload-modules.js';
import { HISTORIES_DIR, recordedHistories } from './lib/history-file.js';

// `npm run replay [files or folders…]`: replays recorded histories (exported from the Temporal UI or
// CLI as JSON, or by scripts/record-histories.ts) against the current workflow code; by default every
// one in test/histories/<process>/, and a folder's (test/histories/wallet) when named. A change that
// would break running workflows fails here with a DeterminismViolationError instead of in production.

const USAGE = `usage: npm run replay [-- <history.json | folder>…]
  Replays each history (every .json under a folder named) against the current workflow code;
  with no argument, every recorded history in ${HISTORIES_DIR}/<process>/.`;

/** The key every history in test/histories was recorded with: a test fixture, not a secret. */
export const HISTORIES_KEY = readFileSync(join(HISTORIES_DIR, 'payload-key.txt'), 'utf8').trim();

/**
 * Replays `files` on one replay worker: the workflow code is bundled once for them all, not once a
 * file, which is most of a replay's cost. A file that cannot be read as a history fails alone; the
 * others still replay.
 */
export async function replayFiles(
  files: string[],
  path = workflowsPath,
  dataConverter?: DataConverter,
  workflowModules = workflowInterceptorModules,
  bundlerOptions: Omit<BundleOptions, 'workflowsPath'> = {},
): Promise<Array<{ file: string; error?: Error }>> {
  const unread = new Map<string, Error>();
  const histories: Array<{ file: string; history: ReturnType<typeof historyFromJSON> }> = [];
  for (const file of files) {
    try {
      histories.push({ file, history: historyFromJSON(JSON.parse(readFileSync(file, 'utf8'))) });
    } catch (error) {
      unread.set(file, error as Error);
    }
  }
  const replayed = new Map<string, Error | undefined>();
  if (histories.length > 0) {
    const results = Worker.runReplayHistories(
      {
        workflowsPath: path,
        interceptors: { workflowModules },
        sinks: replaySinks(),
        bundlerOptions: { ignoreModules: [], preloadModules: [...workflowPreloadModules], ...bundlerOptions },
        ...(dataConverter ? { dataConverter } : {}),
      },
      histories.map(({ file, history }) => ({ workflowId: basename(file, '.json'), history })),
    );
    try {
      // One history at a time, answered in the order given.
      let next = 0;
      for await (const result of results) replayed.set(histories[next++]!.file, result.error);
    } catch (error) {
      // The replay worker itself failed: every history it had not answered fails with it.
      for (const { file } of histories) if (!replayed.has(file)) replayed.set(file, error as Error);
    }
  }
  return files.map((file) => {
    if (unread.has(file)) return { file, error: unread.get(file) };
    // A history the worker never answered did not replay; it is not taken as passed.
    if (!replayed.has(file)) return { file, error: new Error(`${file}: the replay worker gave no result for it`) };
    const error = replayed.get(file);
    return error ? { file, error } : { file };
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    console.log(`${USAGE}\n${recordedHistories().length} recorded histories in ${HISTORIES_DIR}`);
    process.exit(0);
  }
  const files = (args.length ? args : [HISTORIES_DIR]).flatMap((arg) =>
    statSync(arg).isDirectory() ? recordedHistories(arg) : [arg],
  );
  let failed = 0;
  // Histories are encrypted: with this deployment's payload key, or with the fixture key the
  // recorded ones in test/histories use. Plain (older) ones pass through.
  const config = loadConfig();
  const codec = codecFromConfig({ ...config.payloads, previousKeys: [...config.payloads.previousKeys, HISTORIES_KEY] });
  for (const r of await replayFiles(files, workflowsPath, encryptingDataConverter(codec))) {
    console.log(`${r.error ? 'FAIL' : 'ok  '} ${r.file}${r.error ? `\n     ${r.error.name}: ${r.error.message}` : ''}`);
    if (r.error) failed += 1;
  }
  console.log(`${files.length - failed} replayed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}
