import { writeFileSync } from 'node:fs';
import { Client, Connection } from '@temporalio/client';
import { execFileSync } from 'node:child_process';
import { findTemporalCli } from '../src/temporal/cli';
import { request } from 'undici';
import { WalletsClient } from '../src/client/wallets';
import { loadConfig, temporalAddress } from '../src/config';
import { openWalletWorkflowId } from '../workflows/messages/wallet';

// With `npm run dev` running: drives each workflow through its story and writes the histories to
// test/histories/, where `npm run replay` and the replay test check every later change against
// them. Run it again (and commit the files) when a workflow changes on purpose.

const config = loadConfig();
const cli = await findTemporalCli();
if (cli.kind !== 'binary') throw new Error('recording histories needs the temporal CLI (see README)');
const connection = await Connection.connect({ address: temporalAddress(config) });
const client = new Client({ connection, namespace: config.temporal.namespace });
const wallets = new WalletsClient(client, { taskQueue: config.temporal.taskQueue, pollIntervalMs: 2_000 });
const op = async (path: string, body: unknown = {}) => {
  const res = await request(`${config.provider.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return (await res.body.json()) as { transaction: { id: string } };
};
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

const name = `history-${Date.now()}`;
const w = await wallets.open({ name });
const d = await op(`/sandbox/wallets/${w.walletId}/deposits`, { currency: 'BTC', amount: 0.5 });
await pause(500);
await op(`/sandbox/transactions/${d.transaction.id}/confirm`);
await op(`/sandbox/transactions/${d.transaction.id}/resend-callback`);
await op(`/sandbox/wallets/${w.walletId}/interest-payouts`, { currency: 'USD', amount: 2 });
await pause(4_500); // at least two polls
for (const [file, workflowId] of [['open-wallet', openWalletWorkflowId(name)], ['wallet', w.walletWorkflowId]] as const) {
  // The CLI writes the JSON form that historyFromJSON reads (the same as the UI's export).
  const json = execFileSync(cli.path, ['workflow', 'show', '--address', temporalAddress(config), '--namespace', config.temporal.namespace, '--workflow-id', workflowId, '--output', 'json'], { encoding: 'utf8' });
  writeFileSync(`test/histories/${file}.json`, json);
  console.log(`wrote test/histories/${file}.json (${(JSON.parse(json) as { events: unknown[] }).events.length} events)`);
}
await client.workflow.getHandle(w.walletWorkflowId).terminate('history recorded');
await connection.close();
