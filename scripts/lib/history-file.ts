import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type Config, temporalAddress } from '../../src/config.js';
import { findTemporalCli } from '../../src/temporal/cli.js';

// Where recorded histories live, and what the history recorders share: a workflow's history, as
// the Temporal CLI shows it, written to test/histories/<process>/<name><suffix>.json, found by its
// process's name (its folder in workflows/; the opening of a wallet is the wallet's). HISTORY_SUFFIX
// names the files apart, so that histories recorded before a change stay beside the new ones.

export const HISTORIES_DIR = 'test/histories';

/** The processes with recorded histories: each the name of its folder in workflows/, test/histories/ and lib/histories/. */
export const HISTORY_PROCESSES = ['ach-followup', 'checkout', 'kyc', 'onboarding', 'provisioning', 'wallet'] as const;
export type HistoryProcess = (typeof HISTORY_PROCESSES)[number];

/** The file of one recorded history: test/histories/<process>/<name>.json. */
export function historyFile(processName: HistoryProcess, name: string): string {
  return join(HISTORIES_DIR, processName, `${name}.json`);
}

/** Every recorded history (.json) under `dir`, in every process's folder, sorted. */
export function recordedHistories(dir = HISTORIES_DIR): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory()
        ? recordedHistories(join(dir, entry.name))
        : entry.name.endsWith('.json')
          ? [join(dir, entry.name)]
          : [],
    )
    .sort();
}

export async function historyWriter(
  config: Config,
): Promise<(process: HistoryProcess, name: string, workflowId: string, runId?: string) => void> {
  const cli = await findTemporalCli();
  if (cli.kind !== 'binary')
    throw new Error('recording histories needs the temporal CLI (see docs/running-locally.md)');
  const suffix = process.env.HISTORY_SUFFIX ? `-${process.env.HISTORY_SUFFIX}` : '';
  return (processName, name, workflowId, runId) => {
    const address = ['--address', temporalAddress(config), '--namespace', config.temporal.namespace];
    const which = ['--workflow-id', workflowId, ...(runId ? ['--run-id', runId] : [])];
    // The CLI writes the JSON form that historyFromJSON reads (the same as the UI's export).
    const json = execFileSync(cli.path, ['workflow', 'show', ...address, ...which, '--output', 'json'], {
      encoding: 'utf8',
    });
    const file = historyFile(processName, `${name}${suffix}`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, json);
    console.log(`wrote ${file} (${(JSON.parse(json) as { events: unknown[] }).events.length} events)`);
  };
}
