import { Connection } from '@temporalio/client';
import { request } from 'undici';
import { loadConfig } from '../src/config.js';
import { createWallet } from '../src/provider/endpoints.js';
import { providerFromConfig } from '../src/provider/from-config.js';
import { callbackSignature } from '../src/provider/signing.js';
import { clientFor } from '../src/temporal/connection.js';
import { providerCredentials } from '../src/required-settings.js';
import { walletWorkflowId } from '../workflows/wallet/messages.js';
import { walletSrn } from '../src/provider/srn.js';
import { historyWriter } from './lib/history-file.js';

// With the stack running as in scripts/record-histories.ts: records a wallet run that starts from a
// ledger carried across continue-as-new in the shape of an earlier time, takes callbacks and a
// repeat, and polls; test/histories/wallet/wallet-carried-<label>.json then proves that later code still
// replays runs that carry that shape. The label names the shape: v1 (evicted ids and totals) or v2
// (settled records with amounts, amounts as numbers, read by code with exact amounts).

const label = process.argv[2];
const FAR_FUTURE = 4_000_000_000_000; // 2096: a time that cannot be one (a createdAt in the wrong unit)
const entries = {
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
};
const shapes: Record<string, (walletId: string) => Record<string, unknown>> = {
  v1: (walletId) => ({
    carried: {
      walletId,
      entries,
      order: ['TR_CARRIEDPEND1', 'TR_CARRIEDCONF1'],
      settledIds: ['TR_CARRIEDOLD1', 'TR_CARRIEDOLD2'],
      settledTotals: { BTC: 3.5, USD: 20 },
      stats: { callbacks: 5, duplicates: 1, stale: 0, polls: 9, recoveredByPoll: 1 },
    },
  }),
  // Also a horizon and a poll cursor moved past now by such a time, which the new code moves back.
  v2: (walletId) => ({
    carried: {
      version: 2,
      walletId,
      entries,
      order: ['TR_CARRIEDPEND1', 'TR_CARRIEDCONF1'],
      settled: {
        TR_CARRIEDOLD1: ['BTC', 0.1, 'CONFIRMED', 1_699_000_000_000],
        TR_CARRIEDOLD2: ['USD', 20, 'CONFIRMED', 1_699_000_100_000],
      },
      horizon: FAR_FUTURE - 180 * 86_400_000,
      settledTotals: { BTC: 3.5, USD: 20 },
      stats: { callbacks: 5, duplicates: 1, stale: 0, polls: 9, recoveredByPoll: 1, expired: 0, rejected: 0 },
    },
    pollCursor: { since: FAR_FUTURE, seen: [] },
  }),
};
const shape = label ? shapes[label] : undefined;
if (!shape) throw new Error(`usage: record-wallet-carried.ts <${Object.keys(shapes).join('|')}>`);
const config = loadConfig();
const save = await historyWriter(config);
const connection = await Connection.connect(config.temporal.connection);
const client = clientFor(connection, config);

// A wallet at the provider, so that the run's polls find it.
const provider = providerFromConfig(config);
const walletId = (await provider.call(createWallet, { body: { name: `carried-${Date.now()}` } })).id;
await provider.close();
const workflowId = walletWorkflowId(walletId);
await client.workflow.start('walletWorkflow', {
  workflowId,
  taskQueue: config.temporal.taskQueue,
  args: [{ walletId, pollIntervalMs: 2_000, inbox: [], ...shape(walletId) }],
});
// The amount is written as JSON text, so that one with more digits than a double holds arrives whole.
const callback = (id: string, status: string, amount = '2', createdAt = 1_700_000_300_000) =>
  JSON.stringify({
    id,
    createdAt,
    source: 'bitcoin:EXTERNAL',
    dest: walletSrn(walletId),
    currency: 'BTC',
    amount: '<amount>',
    status,
    metadata: {},
    tags: [],
  }).replace('"<amount>"', amount);
for (const body of [
  callback('TR_CARRIEDPEND1', 'CONFIRMED'),
  callback('TR_CARRIEDOLD1', 'CONFIRMED'),
  callback('TR_CARRIEDOLD1', 'CONFIRMED'),
  ...(label === 'v1' ? [] : [callback('TR_CARRIEDFUTURE1', 'CONFIRMED', '1.000000000000000001', FAR_FUTURE)]),
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
save('wallet', `wallet-carried-${label}`, workflowId);
await client.workflow.getHandle(workflowId).terminate('history recorded');
await connection.close();
