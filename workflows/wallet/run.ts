import {
  condition,
  log,
  makeContinueAsNewFunc,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import { transferIdFromSrn } from '../../src/provider/srn.js';
import type { PollAnswer, PollCursor } from '../../src/provider/transaction-observation.js';
import { ProcessStatus, WalletId } from '../../src/temporal/search-attributes.js';
import { reconciliationView } from '../lib/amounts-view.js';
import { workflowNow } from '../lib/workflow-time.js';
import { fromCarried } from './carried-ledger.js';
import { asBeforeExactLedger } from './legacy-float-ledger.js';
import { holdsFirstShapeRecords, recordWithFirstShape, repairHorizon } from './legacy-carried-ledger.js';
import {
  balances,
  classify,
  emptyLedger,
  ledgerCursor,
  type LedgerState,
  type Observation,
  observe,
  recent,
  record,
  type RecordOptions,
  type SeenVia,
  touchesWallet,
} from './ledger.js';
import {
  type Reconciliation,
  reconcileUpdate,
  transactionSignal,
  type WalletInput,
  walletQuery,
  type WalletResult,
  type WalletView,
  type WalletWorkflow,
} from './messages.js';
import { MAX_HISTORY_EVENTS, WALLET_TIMING_DEFAULTS } from './contract.js';
import { pollOutcome } from './poll-answer.js';
import { findDrift } from './drift.js';
import { reconcileEvery, type WalletToReconcile } from './reconciliation.js';
import { transferLookups } from './transfers.js';
import type { RunPatches } from './run-patches.js';
import { trackingShown } from './shown-attributes.js';

// One run of a wallet's follower: what it sets up before its loop and the steps both loops share
// (wallet/workflow.ts, wallet/legacy-polling.ts), its commands in the order recorded runs have them.

/** Not-found answers in a row after which the wallet is taken for one this account does not have. */
export const NOT_FOUND_LIMIT = 3;

/** One poll of the wallet now; a poll that fails is 'failed' (wallet/polls.ts). */
export type Poll = (walletId: string, cursor: PollCursor) => Promise<PollAnswer | 'failed'>;

/** What a loop decides about a run before it opens it. */
export interface RunStart {
  /** Whether the loop looks at the wallet's recent transactions straight away. */
  pollDue: boolean;
  /** The last comparison with the provider's balances, as the run before left it. */
  reconciliation: Reconciliation | undefined;
  /** How the loop compares its ledger with the provider's balances (wallet/reconciliation.ts). */
  reconcile: (wallet: WalletToReconcile) => Promise<Reconciliation>;
}

/** What one pass of a loop brought in. */
export interface Step {
  /** New transactions a poll found; undefined when no poll answered (nothing was polled, or it was refused). */
  pollFound: number | undefined;
  /** Whether a callback came. */
  heard: boolean;
  /** The follower's result when the provider does not know the wallet. */
  ended?: WalletResult;
}

export interface WalletRun {
  readonly input: WalletInput;
  readonly ledger: LedgerState;
  readonly inbox: Array<{ tx: Observation; via: SeenVia }>;
  /** Set by a reconciliation that wants a poll (and by the legacy poll timer); a loop takes it. */
  pollDue: boolean;
  /** Where polling stands: carried since wallet-quiet-polling, moved by every answer. */
  cursor: NonNullable<WalletInput['pollCursor']>;
  /** Cleared when the provider knows the wallet but does not list its transactions. */
  listing: boolean;
  reconciliation: Reconciliation | undefined;
  /** Where a poll starts from: the run's cursor and what the ledger still waits on. */
  pollCursor(): PollCursor;
  /** One poll, counted in the ledger's stats whatever it answered. */
  poll(via: Poll): Promise<PollAnswer | 'failed'>;
  /** Starts a lookup for every deposit whose transfer is not resolved yet (wallet/transfers.ts). */
  lookUpTransfers(): void;
  /** Takes in a poll's (or the watch's) answer and what the inbox holds, oldest first. */
  step(answer: PollAnswer | 'failed' | undefined): Step;
  /** Whether the history is long enough to continue as new. */
  historyFull(): boolean;
  /** Continues as new with the ledger and the inbox, and what the loop carries besides. */
  continueAsNew(carry: Partial<WalletInput>): Promise<never>;
}

/**
 * Opens a run: the ledger from what was carried, the handlers, the reconciliation every interval
 * and the search attributes, as the run's patches decide (wallet/run-patches.ts).
 */
export function openRun(input: WalletInput, patches: RunPatches, start: RunStart): WalletRun {
  const ledger = input.carried ? fromCarried(input.carried) : emptyLedger(input.walletId);
  const inbox: WalletRun['inbox'] = (input.inbox ?? []).map(({ tx, via }) => ({ tx: observe(tx), via }));
  // How the run records and reconciles, chosen once: today's rules (wallet/ledger.ts), or those of
  // the legacy modules for a run from before a patch or a ledger that holds the first shape's records.
  const asBefore = patches.exactLedger ? undefined : asBeforeExactLedger(ledger, input.carried);
  const recordOptions = (): RecordOptions =>
    asBefore?.recordOptions ?? {
      now: workflowNow(),
      keepHeldAside: patches.keepHeldAside,
      boundRecordsWhilePending: patches.boundRecordsWhilePending,
    };
  const driftFrom = asBefore?.driftFrom ?? ((available) => findDrift(balances(ledger), available));
  const recordNotice = holdsFirstShapeRecords(ledger) ? recordWithFirstShape : record;
  let cursor: WalletRun['cursor'] = input.pollCursor ?? { since: 0, seen: [] };
  if (patches.exactLedger) {
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
  // A validly signed callback can name a wallet of another account (or none): its follower must
  // not poll a 404 for ever.
  let notFoundInARow = 0;
  let pollsDone = 0;
  const resolveOutstanding = transferLookups(ledger);

  const run: WalletRun = {
    input,
    ledger,
    inbox,
    pollDue: start.pollDue,
    cursor,
    listing: input.listing ?? true,
    reconciliation: start.reconciliation,
    pollCursor: () => ({ ...run.cursor, ...ledgerCursor(ledger) }),
    poll: (via) => pollOrNot(via).finally(() => (ledger.stats.polls += 1)),
    lookUpTransfers: resolveOutstanding,
    step(answer) {
      const { pollFound, ended } = takeAnswer(answer);
      if (ended) return { pollFound, heard: false, ended };
      const heard = recordInbox();
      pollsDone = ledger.stats.polls;
      resolveOutstanding();
      return { pollFound, heard };
    },
    historyFull() {
      const info = workflowInfo();
      return info.continueAsNewSuggested || info.historyLength >= (input.maxHistoryEvents ?? MAX_HISTORY_EVENTS);
    },
    continueAsNew(carry) {
      patches.markCarriesSettledRecords();
      // As the follower, also from a wallet's opening workflow, which follows the wallet it opened.
      const asFollower = makeContinueAsNewFunc<WalletWorkflow>({ workflowType: 'walletWorkflow' });
      return asFollower({ ...input, carried: ledger, inbox, ...carry });
    },
  };

  const pollOrNot = async (via: Poll): Promise<PollAnswer | 'failed'> =>
    run.listing ? via(input.walletId, run.pollCursor()) : { changed: [], cursor: run.cursor };

  /** What an answer changes: the cursor and the inbox; the follower's end for a wallet the provider does not know. */
  const takeAnswer = (answer: PollAnswer | 'failed' | undefined): Omit<Step, 'heard'> => {
    const outcome = pollOutcome(answer);
    switch (outcome.kind) {
      case 'none':
        return { pollFound: undefined };
      case 'failed':
        notFoundInARow = 0;
        return { pollFound: 0 };
      case 'changed': {
        notFoundInARow = 0;
        run.cursor = outcome.cursor;
        // Only what would change the ledger: a poll is no callback.
        const found = outcome.changed.filter((tx) =>
          ['new', 'advanced'].includes(classify(ledger, tx, recordOptions().now)),
        );
        // observe(): a poll recorded before exact amounts answered numbers.
        for (const tx of found) inbox.push({ tx: observe(tx), via: 'poll' });
        return { pollFound: found.length };
      }
      case 'cannotList':
        run.listing = false;
        log.warn(
          "the provider does not list this wallet's transactions: polling stops; callbacks and reconciliation go on",
          { walletId: input.walletId },
        );
        return { pollFound: undefined };
      case 'notFound':
        if (++notFoundInARow < NOT_FOUND_LIMIT || !patches.endsWhenUnknown()) return { pollFound: undefined };
        log.warn('the provider does not know this wallet; its follower ends', {
          walletId: input.walletId,
          polls: notFoundInARow,
        });
        upsertSearchAttributes([{ key: ProcessStatus, value: 'UNKNOWN_WALLET' }]);
        // The result carries the ledger for a later start (its payload is no command: old runs replay).
        return {
          pollFound: undefined,
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
      if (via === 'callback') heard = true;
      const options = { ...recordOptions(), transferId: transferIdFromSrn(tx.source) };
      if (recordNotice(ledger, tx, via, options) === 'unapplied') {
        log.warn(
          'a transaction remembered without its status ended; its amount is left for the reconciliation and a person',
          { walletId: input.walletId, status: tx.status },
        );
      }
    }
    return heard;
  };

  // The ledger against the provider's balances, after a poll has brought in what the provider
  // reported lately when the loop asks for one (wallet/reconciliation.ts).
  const freshPoll = async () => {
    const after = pollsDone + 1;
    run.pollDue = true;
    await condition(() => pollsDone >= after);
  };
  const reconcile = async () =>
    (run.reconciliation = await start.reconcile({
      walletId: input.walletId,
      driftFrom,
      freshPoll,
    }));

  setHandler(transactionSignal, (tx) => {
    // A callback URL names its wallet unsigned: a signed transaction sent to another wallet's URL
    // is not this wallet's to count.
    if (!touchesWallet(input.walletId, tx)) {
      log.warn('a callback for a transaction of other wallets was ignored', { walletId: input.walletId });
      return;
    }
    inbox.push({ tx: observe(tx), via: 'callback' });
  });
  setHandler(walletQuery, (): WalletView => ({
    walletId: ledger.walletId,
    name: input.name,
    balances: balances(ledger),
    recentTransactions: recent(ledger, 20),
    stats: { ...ledger.stats },
    queued: inbox.length,
    ...(run.reconciliation ? { reconciliation: reconciliationView(run.reconciliation) } : {}),
  }));
  setHandler(reconcileUpdate, reconcile);
  if (patches.reconcilesEveryInterval)
    void reconcileEvery(
      input.reconcileIntervalMs ?? WALLET_TIMING_DEFAULTS.reconcileIntervalMs,
      run.reconciliation,
      reconcile,
    );
  const shown = workflowInfo().typedSearchAttributes;
  if (
    !patches.trackingShownOnce ||
    !trackingShown({ status: shown.get(ProcessStatus), walletId: shown.get(WalletId) }, input.walletId)
  )
    upsertSearchAttributes([
      { key: ProcessStatus, value: 'TRACKING' },
      { key: WalletId, value: input.walletId },
    ]);
  return run;
}
