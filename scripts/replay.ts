import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { DataConverter } from '@temporalio/common';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils.js';
import { loadConfig } from '../src/config.js';
import { codecFromConfig, encryptingDataConverter } from '../src/temporal/codec.js';
import { type BundleOptions, DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { replaySinks } from '../src/telemetry/tracing.js';
import { workflowInterceptorModules, workflowsPath } from '../worker/create-worker.js';
import { workflowPreloadModules } from '../worker/preload-modules.js';

// `npm run replay [files…]`: replays recorded histories (exported from the Temporal UI or CLI as
// JSON, or by scripts/record-histories.ts) against the current workflow code. A change that would
// break running workflows fails here with a DeterminismViolationError instead of in production.

/** The key the histories in test/histories were recorded with: a test fixture, not a secret. */
export const HISTORIES_KEY = readFileSync('test/histories/payload-key.txt', 'utf8').trim();

export async function replayFiles(
  files: string[],
  path = workflowsPath,
  dataConverter?: DataConverter,
  workflowModules = workflowInterceptorModules,
  bundlerOptions: Omit<BundleOptions, 'workflowsPath'> = {},
): Promise<Array<{ file: string; error?: Error }>> {
  const results: Array<{ file: string; error?: Error }> = [];
  for (const file of files) {
    const history = historyFromJSON(JSON.parse(readFileSync(file, 'utf8')));
    try {
      await Worker.runReplayHistory(
        {
          workflowsPath: path,
          interceptors: { workflowModules },
          sinks: replaySinks(),
          bundlerOptions: { ignoreModules: [], preloadModules: [...workflowPreloadModules], ...bundlerOptions },
          ...(dataConverter ? { dataConverter } : {}),
        },
        history,
        basename(file, '.json'),
      );
      results.push({ file });
    } catch (error) {
      results.push({ file, error: error as Error });
    }
  }
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const dir = 'test/histories';
  const files = process.argv.slice(2).length
    ? process.argv.slice(2)
    : readdirSync(dir)
        .filter((f) => f.endsWith('.json'))
        .map((f) => join(dir, f));
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
