import { postCallback } from '../../../bench/protocol.js';
import * as api from '../../../src/provider/endpoints.js';
import { walletSrn } from '../../../src/provider/srn.js';
import { providerCredentials } from '../../../src/required-settings.js';
import { WithStartWorkflowOperation } from '@temporalio/client';
import {
  type OpenWalletResult,
  type OpenWalletWorkflow,
  openedUpdate,
  openWalletWorkflowId,
  walletStartArgs,
  walletWorkflowId,
} from '../../../workflows/wallet/messages.js';
import { sleep } from '../child.js';
import { client, clients, config, expect, op, provider, save, type Stories, taskQueue } from './context.js';

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
  const answer = await postCallback(
    `${config.ingress.publicUrl}/callbacks`,
    providerCredentials(config).secretKey,
    body,
  );
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

/**
 * A wallet opened as a backend in another language opens it (and the product's client did before
 * one workflow per wallet): the opening without `follower`, its follower a child of its own.
 */
async function openAsBefore(name: string): Promise<OpenWalletResult> {
  const result = await client.workflow.execute<OpenWalletWorkflow>('openWalletWorkflow', {
    workflowId: openWalletWorkflowId(name),
    taskQueue,
    args: [walletStartArgs({ name }, config.wallet)],
  });
  if (!('srn' in result)) throw new Error(`openWalletWorkflow for ${name} did not answer an opening`);
  return result;
}

/** Opened, a deposit pending then confirmed, a repeat, an interest payout, a callback lost and polled. */
async function walletLife(opened: OpenWalletResult) {
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
}

/** Reconciled in agreement, apart twice (a correction at the provider that sends no callback), then agreeing again. */
async function driftAndBack(walletId: string): Promise<void> {
  const drifts = async () => (await clients.wallets.reconcile(walletId)).drift.length;
  expect('drifts in agreement', await drifts(), 0);
  await op('POST', `/sandbox/wallets/${walletId}/balance-adjustments`, { currency: 'BTC', amount: '0.1' });
  expect('drifts once apart', await drifts(), 1);
  expect('drifts still apart', await drifts(), 1);
  await op('POST', `/sandbox/wallets/${walletId}/balance-adjustments`, { currency: 'BTC', amount: '-0.1' });
  expect('drifts agreeing again', await drifts(), 0);
}

/** A wallet followed in its opening workflow, with deposits until its first run continues as new. */
async function openedAndContinued(name: string) {
  const opening = new WithStartWorkflowOperation<OpenWalletWorkflow>('openWalletWorkflow', {
    workflowId: openWalletWorkflowId(name),
    taskQueue,
    args: [{ ...walletStartArgs({ name }, config.wallet), follower: 'this-workflow', maxHistoryEvents: 60 }],
    workflowIdConflictPolicy: 'USE_EXISTING',
  });
  const opened = await client.workflow.executeUpdateWithStart(openedUpdate, { startWorkflowOperation: opening });
  const handle = await opening.workflowHandle();
  const firstRun = (await handle.describe()).runId;
  for (let deposits = 0; deposits < 25; deposits++)
    await op('POST', `/sandbox/wallets/${opened.walletId}/deposits`, { currency: 'ETH', amount: 1, confirmed: true });
  while ((await handle.describe()).runId === firstRun) await sleep(200);
  return { opened, handle, firstRun };
}

/**
 * The stories of runs that take every wallet patch on one marker, `wallet-<marker>`: a life, then
 * reconciled in agreement (BalanceDrift not written), apart twice (true, written once), agreeing
 * again (false); and the opening run continuing as new as the follower: that run, and the next.
 */
function onOneMarker(marker: string): Stories {
  return {
    async [`wallet-${marker}`]() {
      const opened = await clients.wallets.open({ name: `history-${marker}-${Date.now()}` });
      await walletLife(opened);
      await driftAndBack(opened.walletId);
      save('wallet', `open-wallet-${marker}`, opened.walletWorkflowId);
      await client.workflow.getHandle(opened.walletWorkflowId).terminate('history recorded');
    },
    async [`wallet-${marker}-continued`]() {
      const { opened, handle, firstRun } = await openedAndContinued(`history-${marker}-rolled-${Date.now()}`);
      await op('POST', `/sandbox/wallets/${opened.walletId}/deposits`, { currency: 'ETH', amount: 1, confirmed: true });
      expect('deposits counted across the runs', (await clients.wallets.reconcile(opened.walletId)).drift.length, 0);
      save('wallet', `open-wallet-${marker}-continued`, opened.walletWorkflowId, firstRun);
      save('wallet', `wallet-${marker}-next-run`, opened.walletWorkflowId);
      await handle.terminate('history recorded');
    },
  };
}

export const stories: Stories = {
  // A wallet followed in its opening workflow, as the product's client opens one: its life.
  async 'wallet-one-workflow'() {
    const opened = await clients.wallets.open({ name: `history-one-${Date.now()}` });
    await walletLife(opened);
    save('wallet', 'open-wallet-one-workflow', opened.walletWorkflowId);
    await client.workflow.getHandle(opened.walletWorkflowId).terminate('history recorded');
  },

  // The same, recorded again once wallet-records-bounded is asked at every run's start.
  async 'wallet-records-bounded'() {
    const opened = await clients.wallets.open({ name: `history-bounded-${Date.now()}` });
    await walletLife(opened);
    save('wallet', 'open-wallet-records-bounded', opened.walletWorkflowId);
    await client.workflow.getHandle(opened.walletWorkflowId).terminate('history recorded');
  },

  // Reconciled on request once wallet-drift-shown-on-change is asked at each reconciliation: in
  // agreement (BalanceDrift not written), apart twice (true, written once), then agreeing again (false).
  async 'wallet-drift-shown-on-change'() {
    const opened = await clients.wallets.open({ name: `history-drift-${Date.now()}` });
    const { walletId } = opened;
    await op('POST', `/sandbox/wallets/${walletId}/deposits`, { currency: 'BTC', amount: 0.5, confirmed: true });
    await sleep(2_000);
    await driftAndBack(walletId);
    save('wallet', 'open-wallet-drift-shown-on-change', opened.walletWorkflowId);
    await client.workflow.getHandle(opened.walletWorkflowId).terminate('history recorded');
  },

  // Once every wallet patch is one marker (wallet-patches-as-one), and again with the watch's first
  // wait kept (wallet-patches-as-one-2).
  ...onOneMarker('patches-as-one'),
  ...onOneMarker('patches-as-one-2'),

  // The same, its opening run continuing as new as the follower once its history is long: that run.
  async 'wallet-one-workflow-continued'() {
    const name = `history-one-rolled-${Date.now()}`;
    const { opened, handle, firstRun } = await openedAndContinued(name);
    save('wallet', 'open-wallet-one-workflow-continued', opened.walletWorkflowId, firstRun);
    await handle.terminate('history recorded');
  },

  // Opened as before one workflow per wallet: the opening and its follower, each recorded.
  async wallet() {
    const name = `history-${Date.now()}`;
    const opened = await openAsBefore(name);
    await walletLife(opened);
    save('wallet', 'open-wallet', openWalletWorkflowId(name));
    save('wallet', 'wallet', opened.walletWorkflowId);
    await client.workflow.getHandle(opened.walletWorkflowId).terminate('history recorded');
  },

  // A follower that continues as new once its history is long: the first run is recorded.
  async 'wallet-continued'() {
    const rolled = await openAsBefore(`history-rolled-${Date.now()}`);
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
