import { allHandlersFinished, condition, setHandler } from '@temporalio/workflow';
import { afterCallback, afterPoll, type PollPace } from '../lib/poll-schedule.js';
import { validateStart } from '../lib/process.js';
import { checkWalletInput } from './checks.js';
import { WALLET_TIMING_DEFAULTS } from './contract.js';
import { hasPending } from './ledger.js';
import { followAsBeforeQuietPolling } from './legacy-polling.js';
import { openedUpdate, type WalletInput, type WalletResult } from './messages.js';
import { pollNow } from './polls.js';
import { reconcileWallet } from './reconciliation.js';
import { openRun } from './run.js';
import { type RunPatches, runPatches } from './run-patches.js';
import { walletWatch } from './watch.js';

// Follows one wallet for as long as it lives: every transaction the provider reports, by callback
// or by polling, is counted once, in order of status. A watch polls the provider less the quieter
// the wallet is (wallet/watch.ts); the ledger and what a pass takes in are wallet/run.ts.

export async function walletWorkflow(input: WalletInput): Promise<WalletResult> {
  // Checked only: the run goes on with its input as given (carried state included), so that its
  // commands, and what it carries on, stay as recorded.
  validateStart(checkWalletInput, input);
  // A wallet followed in its opening workflow answers a later opening of its name.
  const { opening } = input;
  if (opening) setHandler(openedUpdate, () => opening);
  // Decided once: a run that started before wallet-quiet-polling goes on as it did until it
  // continues as new (wallet/legacy-polling.ts).
  const patches = runPatches();
  return patches.quietPolling ? followWallet(input, patches) : followAsBeforeQuietPolling(input, patches);
}

/** Today's follower, for a run that recorded wallet-quiet-polling. */
export async function followWallet(input: WalletInput, patches: RunPatches): Promise<WalletResult> {
  const run = openRun(input, patches, {
    // A new run that carries nothing (started by a callback, or restarted after a termination)
    // looks at the wallet's recent transactions straight away; one just opened has none.
    pollDue: input.carried === undefined && !input.opened,
    reconciliation: input.reconciliation,
    reconcile: (wallet) => reconcileWallet(wallet, patches.driftShownOnChange),
  });
  const watch = walletWatch(
    input.walletId,
    { intervalMs: input.pollIntervalMs, maxMs: input.pollMaxMs ?? WALLET_TIMING_DEFAULTS.pollMaxMs },
    { firstWait: patches.firstWait },
  );
  const pending = () => hasPending(run.ledger);
  let pace: PollPace = { quietPolls: input.quietPolls ?? 0 };
  run.lookUpTransfers();

  for (;;) {
    // Until a poll is due (a reconciliation wants one), the watch has news, or a callback arrives.
    if (run.listing) watch.ensure(run.pollCursor, pace, pending);
    await condition(() => run.inbox.length > 0 || run.pollDue || watch.ended);

    const due = run.pollDue;
    run.pollDue = false;
    const { pollFound, heard, ended } = run.step(due ? await run.poll(pollNow) : watch.take());
    if (ended) return ended;
    if (pollFound !== undefined) pace = afterPoll(pace, pollFound);
    if (heard) pace = afterCallback();
    // A watch set up for another state (a transaction pending or not, a quiet pace) starts over.
    watch.refresh({ pending: pending(), providerActive: Boolean(pollFound) || heard });

    if (run.historyFull()) {
      // Lookups under way are not waited for: the next run starts them again. A reconciliation
      // under way may still want a poll (it compares first): the loop serves it and comes back here.
      await condition(() => allHandlersFinished() || run.pollDue);
      if (allHandlersFinished())
        await run.continueAsNew({
          quietPolls: pace.quietPolls,
          pollCursor: run.cursor,
          reconciliation: run.reconciliation,
          listing: run.listing,
        });
    }
  }
}
