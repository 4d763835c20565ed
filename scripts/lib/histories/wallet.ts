import { postCallback } from '../../../bench/protocol.js';
import * as api from '../../../src/provider/endpoints.js';
import { walletSrn } from '../../../src/provider/srn.js';
import { providerCredentials } from '../../../src/required-settings.js';
import { openWalletWorkflowId, walletWorkflowId } from '../../../workflows/wallet/messages.js';
import { sleep } from '../child.js';
import { client, clients, config, op, provider, save, type Stories, taskQueue } from './context.js';

/**
 * Posts a signed callback of a BTC transaction to `walletId` to the ingress, as the provider
 * would; the amount is written as JSON text, so that one with more digits than a double holds
 * arrives whole. Answers the ingress's status.
 */
async function callback(walletId: string, id: string, status: string, amount: string, createdAt: number) {
  const body = JSON.stringify({
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
  const answer = await postCallback(`${config.ingress.publicUrl}`, providerCredentials(config).secretKey, body);
  console.log(`callback ${id} ${status}: ${answer}`);
  return answer;
}

// The ledger a wallet's run carried across continue-as-new in an earlier shape: a run started from
// it, given callbacks and a repeat, proves that later code still replays runs that carry that shape.
// v1: evicted ids and totals; v2: settled records with amounts, amounts as numbers.
const FAR_FUTURE = 4_000_000_000_000; // 2096: a time that cannot be one (a createdAt in the wrong unit)
const carriedEntries = {
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
const carriedShapes = {
  v1: (walletId: string) => ({
    carried: {
      walletId,
      entries: carriedEntries,
      order: ['TR_CARRIEDPEND1', 'TR_CARRIEDCONF1'],
      settledIds: ['TR_CARRIEDOLD1', 'TR_CARRIEDOLD2'],
      settledTotals: { BTC: 3.5, USD: 20 },
      stats: { callbacks: 5, duplicates: 1, stale: 0, polls: 9, recoveredByPoll: 1 },
    },
  }),
  // Also a horizon and a poll cursor moved past now by such a time, which the new code moves back.
  v2: (walletId: string) => ({
    carried: {
      version: 2,
      walletId,
      entries: carriedEntries,
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

async function walletCarried(label: keyof typeof carriedShapes) {
  // A wallet at the provider, so that the run's polls find it.
  const walletId = (await provider.call(api.createWallet, { body: { name: `carried-${Date.now()}` } })).id;
  const workflowId = walletWorkflowId(walletId);
  await client.workflow.start('walletWorkflow', {
    workflowId,
    taskQueue,
    args: [{ walletId, pollIntervalMs: 2_000, inbox: [], ...carriedShapes[label](walletId) }],
  });
  const confirmed = (id: string) => callback(walletId, id, 'CONFIRMED', '2', 1_700_000_300_000);
  await confirmed('TR_CARRIEDPEND1');
  await confirmed('TR_CARRIEDOLD1');
  await confirmed('TR_CARRIEDOLD1');
  if (label !== 'v1') await callback(walletId, 'TR_CARRIEDFUTURE1', 'CONFIRMED', '1.000000000000000001', FAR_FUTURE);
  await sleep(5_000);
  save('wallet', `wallet-carried-${label}`, workflowId);
  await client.workflow.getHandle(workflowId).terminate('history recorded');
}

type Deposit = { transaction: { id: string } };

export const stories: Stories = {
  // Opened, a deposit pending then confirmed, a repeat, an interest payout, some polls.
  async wallet() {
    const name = `history-${Date.now()}`;
    const opened = await clients.wallets.open({ name });
    const deposit = await op<Deposit>('POST', `/sandbox/wallets/${opened.walletId}/deposits`, {
      currency: 'BTC',
      amount: 0.5,
    });
    await sleep(500);
    await op('POST', `/sandbox/transactions/${deposit.transaction.id}/confirm`);
    await op('POST', `/sandbox/transactions/${deposit.transaction.id}/resend-callback`);
    await op('POST', `/sandbox/wallets/${opened.walletId}/interest-payouts`, { currency: 'USD', amount: 2 });
    await sleep(4_500);
    // A callback lost on the way: the next poll finds its deposit.
    await op('PUT', '/sandbox/knobs/callbacks', { drop: 1 });
    await op('POST', `/sandbox/wallets/${opened.walletId}/deposits`, {
      currency: 'BTC',
      amount: 0.25,
      confirmed: true,
    });
    await sleep(6_000);
    save('wallet', 'open-wallet', openWalletWorkflowId(name));
    save('wallet', 'wallet', opened.walletWorkflowId);
    await client.workflow.getHandle(opened.walletWorkflowId).terminate('history recorded');
  },

  // A run that continues as new once its history is long: the first run is recorded.
  async 'wallet-continued'() {
    const rolled = await clients.wallets.open({ name: `history-rolled-${Date.now()}` });
    const handle = client.workflow.getHandle(rolled.walletWorkflowId);
    await handle.terminate('restarted with a short history limit');
    const rolling = await client.workflow.start('walletWorkflow', {
      workflowId: rolled.walletWorkflowId,
      taskQueue,
      args: [
        {
          walletId: rolled.walletId,
          pollIntervalMs: config.wallet.pollIntervalMs,
          pollMaxMs: config.wallet.pollMaxMs,
          maxHistoryEvents: 60,
        },
      ],
    });
    for (let deposits = 0; deposits < 25; deposits++)
      await op('POST', `/sandbox/wallets/${rolled.walletId}/deposits`, {
        currency: 'ETH',
        amount: 1,
        confirmed: true,
      });
    while ((await handle.describe()).runId === rolling.firstExecutionRunId) await sleep(200);
    save('wallet', 'wallet-continued', rolled.walletWorkflowId, rolling.firstExecutionRunId);
    await handle.terminate('history recorded');
  },

  // A signed callback for a wallet the provider does not know: its follower counts it, polls, and
  // ends UNKNOWN_WALLET.
  async 'wallet-unknown'() {
    const walletId = `WA_UNKNOWN${Date.now()}`;
    const status = await callback(walletId, `TR_UNKNOWN${Date.now()}`, 'CONFIRMED', '0.5', Date.now());
    if (status !== 200) throw new Error(`the ingress answered ${status}`);
    await client.workflow.getHandle(walletWorkflowId(walletId)).result();
    save('wallet', 'wallet-unknown', walletWorkflowId(walletId));
  },

  'wallet-carried-v1': () => walletCarried('v1'),
  'wallet-carried-v2': () => walletCarried('v2'),
};
