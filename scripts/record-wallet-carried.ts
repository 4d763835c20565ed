import { Connection } from '@temporalio/client';
import { request } from 'undici';
import { loadConfig } from '../src/config.js';
import { createWallet } from '../src/provider/endpoints.js';
import { providerFromConfig } from '../src/provider/from-config.js';
import { callbackSignature } from '../src/provider/signing.js';
import { clientFor } from '../src/temporal/connection.js';
import { providerCredentials } from '../src/required-settings.js';
import { walletWorkflowId } from '../workflows/messages/wallet.js';
import { walletSrn } from '../src/provider/srn.js';
import { historyWriter } from './lib/history-file.js';

// With the stack running as in scripts/record-histories.ts: records a wallet run that starts from a
// ledger carried across continue-as-new in the shape of the time (evicted ids and totals), takes a
// callback and a repeat, and polls; test/histories/wallet-carried-<label>.json then proves that
// later code still replays runs that carry that shape.

const label = process.argv[2];
if (!label) throw new Error('usage: record-wallet-carried.ts <label>');
const config = loadConfig();
const save = await historyWriter(config);
const connection = await Connection.connect(config.temporal.connection);
const client = clientFor(connection, config);

// A wallet at the provider, so that the run's polls find it.
const provider = providerFromConfig(config);
const walletId = (await provider.call(createWallet, { body: { name: `carried-${Date.now()}` } })).id;
await provider.close();
const carried = {
  walletId,
  entries: {
    TR_CARRIEDPEND1: {
      id: 'TR_CARRIEDPEND1',
      currency: 'BTC',
      amount: 2,
      status: 'PENDING',
      kind: 'deposit',
      source: 'bitcoin:EXTERNAL',
      createdAt: 1_700_000_000_000,
      firstSeenVia: 'callback',
    },
    TR_CARRIEDCONF1: {
      id: 'TR_CARRIEDCONF1',
      currency: 'BTC',
      amount: 1,
      status: 'CONFIRMED',
      kind: 'deposit',
      source: 'bitcoin:EXTERNAL',
      createdAt: 1_700_000_100_000,
      confirmedAt: 1_700_000_200_000,
      firstSeenVia: 'poll',
    },
  },
  order: ['TR_CARRIEDPEND1', 'TR_CARRIEDCONF1'],
  settledIds: ['TR_CARRIEDOLD1', 'TR_CARRIEDOLD2'],
  settledTotals: { BTC: 3.5, USD: 20 },
  stats: { callbacks: 5, duplicates: 1, stale: 0, polls: 9, recoveredByPoll: 1 },
};
const workflowId = walletWorkflowId(walletId);
await client.workflow.start('walletWorkflow', {
  workflowId,
  taskQueue: config.temporal.taskQueue,
  args: [{ walletId, pollIntervalMs: 2_000, carried, inbox: [] }],
});
const callback = (id: string, status: string) =>
  JSON.stringify({
    id,
    createdAt: 1_700_000_300_000,
    source: 'bitcoin:EXTERNAL',
    dest: walletSrn(walletId),
    currency: 'BTC',
    amount: 2,
    status,
    metadata: {},
    tags: [],
  });
for (const body of [
  callback('TR_CARRIEDPEND1', 'CONFIRMED'),
  callback('TR_CARRIEDOLD1', 'CONFIRMED'),
  callback('TR_CARRIEDOLD1', 'CONFIRMED'),
]) {
  const res = await request(`${config.ingress.publicUrl}/callbacks`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-api-signature': callbackSignature(providerCredentials(config).secretKey, Buffer.from(body)),
    },
    body,
  });
  console.log(`callback: ${res.statusCode}`);
  await res.body.dump();
}
await new Promise((resolve) => setTimeout(resolve, 5_000));
save(`wallet-carried-${label}`, workflowId);
await client.workflow.getHandle(workflowId).terminate('history recorded');
await connection.close();
