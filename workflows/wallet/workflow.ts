import {
  allHandlersFinished,
  condition,
  continueAsNew,
  log,
  patched,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import { transferIdFromSrn } from '../../src/provider/srn.js';
import { ProcessStatus, WalletId } from '../../src/temporal/search-attributes.js';
import {
  balances,
  classify,
  emptyLedger,
  fromCarried,
  hasPending,
  ledgerCursor,
  type Observation,
  observe,
  recent,
  record,
  repairHorizon,
  type SeenVia,
} from './ledger.js';
import { validateStart } from '../lib/process.js';
import { workflowNow } from '../lib/workflow-time.js';
import { checkWalletInput } from './checks.js';
import { reconciliationView } from '../lib/amounts-view.js';
import { afterCallback, afterPoll, type PollPace } from '../lib/poll-schedule.js';
import { legacyPollTimer, pollNow } from './polls.js';
import {
  EXACT_LEDGER_PATCH,
  LEDGER_V2_PATCH,
  QUIET_POLLING_PATCH,
  RECONCILE_PATCH,
  UNKNOWN_WALLET_PATCH,
} from '../patches.js';
import { pollOutcome, type PollOutcome } from './poll-answer.js';
import { walletWatch } from './watch.js';
import { transferLookups } from './transfers.js';
import type { PollAnswer } from '../../src/provider/transaction-observation.js';
import { reconcileEvery, reconcileWallet } from './reconcile-wallet.js';
import { floatDrift, floatTotalsFrom } from './legacy-float-ledger.js';
import { findDrift } from './reconcile.js';
import {
  type Reconciliation,
  reconcileUpdate,
  transactionSignal,
  type WalletInput,
  walletQuery,
  type WalletResult,
  type WalletView,
} from './messages.js';

// Follows one wallet for as long as it lives: every transaction the provider reports, by
// callback or by polling, is counted once, in order of status (pending, then confirmed);
// interest payouts are recognised through the transfer they come from.

const DEFAULT_POLL_MAX_MS = 90 * 60_000;
const DEFAULT_RECONCILE_MS = 6 * 3_600_000;

/** Not-found answers in a row after which the wallet is taken for one this account does not have. */
export const NOT_FOUND_LIMIT = 3;

export async function walletWorkflow(input: WalletInput): Promise<WalletResult> {
  // Checked only: the run goes on with its input as given (carried state included), so that its
  // commands, and what it carries on, stay as recorded.
  validateStart(checkWalletInput, input);
  const ledger = input.carried ? fromCarried(input.carried) : emptyLedger(input.walletId);
  const inbox: Array<{ tx: Observation; via: SeenVia }> = (input.inbox ?? []).map(({ tx, via }) => ({
    tx: observe(tx),
    via,
  }));
  const quiet = patched(QUIET_POLLING_PATCH);
  // Amounts are exact in every run (numbers from older histories are read as String(n)); runs
  // with this marker carry them as decimal strings and bound the ledger (workflows/patches.ts).
  const exact = patched(EXACT_LEDGER_PATCH);
  // Since that patch, times the provider reports are bounded by the workflow's now (wallet/ledger.ts).
  const now = () => (exact ? workflowNow() : undefined);
  // A run from before it decided its reconciliations in floating point, and replays so.
  if (!exact) ledger.floatTotals = floatTotalsFrom(input.carried);
  // A new run that carries nothing (started by a callback, or restarted after a termination) looks
  // at the wallet's recent transactions straight away; one just opened has none.
  let pollDue = input.carried === undefined && !(quiet && input.opened);
  const timing = { intervalMs: input.pollIntervalMs, maxMs: input.pollMaxMs ?? DEFAULT_POLL_MAX_MS };
  let pace: PollPace = { quietPolls: input.quietPolls ?? 0 };
  let cursor = input.pollCursor ?? { since: 0, seen: [] };
  if (exact) {
    // A horizon or cursor carried from before, moved past now by a time that could not be one.
    const at = workflowNow();
    const horizonMoved = repairHorizon(ledger, at);
    const cursorMoved = cursor.since > at;
    if (cursorMoved) cursor = { since: 0, seen: [] };
    if (horizonMoved || cursorMoved)
      log.warn('a horizon or poll cursor past now was moved back; the reconciliation is the backstop', {
        walletId: input.walletId,
      });
  }
  const watch = walletWatch(input.walletId, timing);
  // Cleared when the provider knows the wallet but does not list its transactions.
  let listing = input.listing ?? true;
  // A validly signed callback can name a wallet of another account (or none): its follower must
  // not poll a 404 for ever.
  let notFoundInARow = 0;
  let pollsDone = 0;
  // Carried across continue-as-new since wallet-quiet-polling, so that the query keeps showing it.
  let reconciliation: Reconciliation | undefined = quiet ? input.reconciliation : undefined;

  // The ledger against the provider's balances, after a poll has brought in what the provider
  // reported lately when they disagree (workflows/wallet/reconcile-wallet.ts).
  const freshPoll = async () => {
    const after = pollsDone + 1;
    pollDue = true;
    await condition(() => pollsDone >= after);
  };
  const reconcile = async () =>
    (reconciliation = await reconcileWallet({
      walletId: input.walletId,
      quiet,
      driftFrom: (available) =>
        ledger.floatTotals ? floatDrift(ledger, ledger.floatTotals, available) : findDrift(balances(ledger), available),
      freshPoll,
    }));

  setHandler(transactionSignal, (tx) => {
    inbox.push({ tx: observe(tx), via: 'callback' });
  });
  setHandler(walletQuery, (): WalletView => ({
    walletId: ledger.walletId,
    name: input.name,
    balances: balances(ledger),
    recentTransactions: recent(ledger, 20),
    stats: { ...ledger.stats },
    queued: inbox.length,
    ...(reconciliation ? { reconciliation: reconciliationView(reconciliation) } : {}),
  }));
  setHandler(reconcileUpdate, reconcile);
  if (patched(RECONCILE_PATCH))
    void reconcileEvery(input.reconcileIntervalMs ?? DEFAULT_RECONCILE_MS, reconciliation, reconcile);
  upsertSearchAttributes([
    { key: ProcessStatus, value: 'TRACKING' },
    { key: WalletId, value: input.walletId },
  ]);

  if (!quiet) legacyPollTimer(input.pollIntervalMs, () => (pollDue = true));
  // Until a poll is due, the watch has news, or a callback arrives.
  const nextPollOrInbox = async () => {
    if (quiet && listing) watch.ensure(() => ({ ...cursor, ...ledgerCursor(ledger) }), pace, hasPending(ledger));
    await condition(() => inbox.length > 0 || pollDue || watch.ended);
  };
  // One poll now: what the provider lists that would change the ledger, oldest first.
  const poll = async (): Promise<PollAnswer | 'failed'> =>
    listing ? pollNow(input.walletId, quiet, { ...cursor, ...ledgerCursor(ledger) }) : { changed: [], cursor };

  const resolveOutstanding = transferLookups(ledger);
  resolveOutstanding();

  /**
   * What a poll's answer changes: the cursor, the pace and the inbox; the follower's end for a
   * wallet the provider does not know. Answers whether the poll found something new.
   */
  const takeAnswer = (outcome: PollOutcome): { found: boolean; ended?: WalletResult } => {
    switch (outcome.kind) {
      case 'none':
        return { found: false };
      case 'failed':
        notFoundInARow = 0;
        pace = afterPoll(pace, 0);
        return { found: false };
      case 'changed': {
        notFoundInARow = 0;
        cursor = outcome.cursor;
        // Only what would change the ledger: a poll is no callback.
        const found = outcome.changed.filter((tx) => ['new', 'advanced'].includes(classify(ledger, tx, now())));
        // observe(): a poll recorded before exact amounts answered numbers.
        for (const tx of found) inbox.push({ tx: observe(tx), via: 'poll' });
        pace = afterPoll(pace, found.length);
        return { found: found.length > 0 };
      }
      case 'cannotList':
        listing = false;
        log.warn(
          "the provider does not list this wallet's transactions: polling stops; callbacks and reconciliation go on",
          { walletId: input.walletId },
        );
        return { found: false };
      case 'notFound':
        if (++notFoundInARow < NOT_FOUND_LIMIT || !patched(UNKNOWN_WALLET_PATCH)) return { found: false };
        log.warn('the provider does not know this wallet; its follower ends', {
          walletId: input.walletId,
          polls: notFoundInARow,
        });
        upsertSearchAttributes([{ key: ProcessStatus, value: 'UNKNOWN_WALLET' }]);
        // The result carries the ledger for a later start (its payload is no command: old runs replay).
        return {
          found: false,
          ended: {
            outcome: 'UNKNOWN_WALLET',
            walletId: input.walletId,
            callbacks: ledger.stats.callbacks,
            ledger,
            inbox,
          },
        };
    }
  };

  /** Records what the inbox holds, oldest first. Answers whether a callback came. */
  const recordInbox = (): boolean => {
    let heard = false;
    while (inbox.length > 0) {
      const { tx, via } = inbox.shift()!;
      if (via === 'callback' && quiet) {
        pace = afterCallback();
        heard = true;
      }
      if (record(ledger, tx, via, { transferId: transferIdFromSrn(tx.source), now: now() }) === 'unapplied') {
        log.warn(
          'a transaction remembered without its status ended; its amount is left for the reconciliation and a person',
          { walletId: input.walletId, status: tx.status },
        );
      }
    }
    return heard;
  };

  for (;;) {
    await nextPollOrInbox();

    const due = pollDue;
    pollDue = false;
    const answer = due ? await poll().finally(() => (ledger.stats.polls += 1)) : watch.take();
    const { found, ended } = takeAnswer(pollOutcome(answer));
    if (ended) return ended;
    const heard = recordInbox();
    pollsDone = ledger.stats.polls;
    resolveOutstanding();
    // A watch set up for another state (a transaction pending or not, a quiet pace) starts over.
    if (quiet) watch.refresh(hasPending(ledger), found || heard);

    const info = workflowInfo();
    if (info.continueAsNewSuggested || info.historyLength >= (input.maxHistoryEvents ?? 10_000)) {
      // Lookups under way are not waited for: the next run starts them again.
      // A reconciliation under way may still want a poll (quiet polling compares first): the loop
      // serves it and comes back here.
      await condition(() => allHandlersFinished() || (quiet && pollDue));
      if (allHandlersFinished()) {
        // The ledger is carried in its second shape since this patch: the marker keeps workers that
        // predate it from replaying this run, and runs started before it carry the first shape,
        // which fromCarried reads. Deprecate once no wallet runs code older than the patch.
        patched(LEDGER_V2_PATCH);
        await continueAsNew<typeof walletWorkflow>({
          ...input,
          carried: ledger,
          inbox,
          ...(quiet ? { quietPolls: pace.quietPolls, pollCursor: cursor, reconciliation, listing } : {}),
        });
      }
    }
  }
}
