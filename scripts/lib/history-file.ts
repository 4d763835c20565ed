import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { type Config, temporalAddress } from '../../src/config.js';
import { findTemporalCli } from '../../src/temporal/cli.js';

// What the history recorders share: a workflow's history, as the Temporal CLI shows it, written to
// test/histories/<name><suffix>.json. HISTORY_SUFFIX names the files apart, so that histories
// recorded before a change stay beside the new ones.

export async function historyWriter(
  config: Config,
): Promise<(name: string, workflowId: string, runId?: string) => void> {
  const cli = await findTemporalCli();
  if (cli.kind !== 'binary')
    throw new Error('recording histories needs the temporal CLI (see docs/running-locally.md)');
  const suffix = process.env.HISTORY_SUFFIX ? `-${process.env.HISTORY_SUFFIX}` : '';
  return (name, workflowId, runId) => {
    const address = ['--address', temporalAddress(config), '--namespace', config.temporal.namespace];
    const which = ['--workflow-id', workflowId, ...(runId ? ['--run-id', runId] : [])];
    // The CLI writes the JSON form that historyFromJSON reads (the same as the UI's export).
    const json = execFileSync(cli.path, ['workflow', 'show', ...address, ...which, '--output', 'json'], {
      encoding: 'utf8',
    });
    const file = `test/histories/${name}${suffix}.json`;
    writeFileSync(file, json);
    console.log(`wrote ${file} (${(JSON.parse(json) as { events: unknown[] }).events.length} events)`);
  };
}
