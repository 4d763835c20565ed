import { allHandlersFinished, condition, proxyActivities, sleep } from '@temporalio/workflow';
import type { WalletActivities } from '../../activities/wallets.js';
import type { PollAnswer, PollCursor } from '../../src/provider/transaction-observation.js';
import { POLL } from '../lib/activity-options.js';
import type { Reconciliation, WalletInput, WalletResult } from './messages.js';
import { pollFailed } from './polls.js';
import { compareBalances, shown, type WalletToReconcile, writtenEveryTime } from './reconciliation.js';
import { openRun } from './run.js';
import type { RunPatches } from './run-patches.js';

// How a wallet was followed before wallet-quiet-polling, for runs without its marker until they
// continue as new onto today's loop (wallet/workflow.ts): a poll lists the whole page every
// interval, a wallet just opened is polled at once, a reconciliation polls first, and nothing of
// the polling is carried on. Delete with the patch, once no wallet runs code from before it.

const legacyPolls = proxyActivities<WalletActivities>(POLL);

export async function followAsBeforeQuietPolling(input: WalletInput, patches: RunPatches): Promise<WalletResult> {
  const run = openRun(input, patches, {
    // A new run that carries nothing (started by a callback, or just opened) looks at once.
    pollDue: input.carried === undefined,
    reconciliation: undefined,
    reconcile: pollThenCompare,
  });
  pollEveryInterval(input.pollIntervalMs, () => (run.pollDue = true));
  run.lookUpTransfers();

  for (;;) {
    await condition(() => run.inbox.length > 0 || run.pollDue);
    const due = run.pollDue;
    run.pollDue = false;
    const { ended } = run.step(due ? await run.poll(listAll) : undefined);
    if (ended) return ended;
    if (run.historyFull()) {
      await condition(allHandlersFinished);
      await run.continueAsNew({});
    }
  }
}

/** A poll is due every interval, whatever happened. */
function pollEveryInterval(intervalMs: number, due: () => void): void {
  void (async () => {
    for (;;) {
      await sleep(intervalMs);
      due();
    }
  })();
}

/** The page of the wallet's transactions, newest first from the provider: oldest first into the ledger. */
async function listAll(walletId: string, cursor: PollCursor): Promise<PollAnswer | 'failed'> {
  try {
    return { changed: [...(await legacyPolls.listWalletTransactions(walletId))].reverse(), cursor };
  } catch (err) {
    return pollFailed(err);
  }
}

/** A poll first, then the ledger against the provider's balances; BalanceDrift written every time, as it was. */
async function pollThenCompare(wallet: WalletToReconcile): Promise<Reconciliation> {
  await wallet.freshPoll();
  return shown(wallet.walletId, await compareBalances(wallet), writtenEveryTime);
}
