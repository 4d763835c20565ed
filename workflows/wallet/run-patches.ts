import { patched } from '@temporalio/workflow';
import {
  DRIFT_SHOWN_ON_CHANGE_PATCH,
  EXACT_LEDGER_PATCH,
  HELD_ASIDE_KEPT_PATCH,
  LEDGER_V2_PATCH,
  QUIET_POLLING_PATCH,
  RECONCILE_PATCH,
  RECORDS_BOUNDED_PATCH,
  UNKNOWN_WALLET_PATCH,
  WALLET_PATCHES_AS_ONE_2_PATCH,
  WALLET_PATCHES_AS_ONE_PATCH,
} from '../patch-ids.js';
import type { FirstWaitRule } from '../lib/poll-schedule.js';

// Which of the wallet's patches a run follows (workflows/patches.ts), decided in one place and
// passed down by name. A run that records wallet-patches-as-one takes every branch below without
// asking for it: each marker costs a history event and a TemporalChangeVersion upsert, that is a
// visibility write, so six a run became one. Runs recorded before it ask each as they recorded it:
// five before the run's first command, in the recorded order; three later, by name where they hold
// them. A change after it folds into a new marker of the same kind, asked first:
// wallet-patches-as-one-2 is every branch of wallet-patches-as-one and the watch's first wait kept.

export interface RunPatches {
  /** wallet-quiet-polling: today's loop (wallet/workflow.ts); without it, wallet/legacy-polling.ts. */
  readonly quietPolling: boolean;
  /**
   * wallet-exact-ledger: times bounded by the workflow's now, carried horizons repaired and
   * reconciliations decided exactly; without it, as in wallet/legacy-float-ledger.ts.
   */
  readonly exactLedger: boolean;
  /** wallet-held-aside-kept (asked only with an exact ledger): records held aside outlive the bound. */
  readonly keepHeldAside: boolean;
  /**
   * wallet-records-bounded (asked only with an exact ledger, after the others): the settled records
   * stay within their bound even while more entries are pending than the recent ones kept.
   */
  readonly boundRecordsWhilePending: boolean;
  /**
   * wallet-patches-as-one-2: callbacks leave the watch's first wait running, a timer kept instead of
   * one cancelled and one started per callback (wallet/watch.ts); before it, they started it over.
   */
  readonly firstWait: FirstWaitRule;
  /** wallet-reconcile: the ledger is compared with the provider's balances every interval. */
  readonly reconcilesEveryInterval: boolean;
  /**
   * wallet-patches-as-one: a run writes ProcessStatus TRACKING and its WalletId only when it does
   * not show them already (a run continued as new shows what the run before it wrote).
   */
  readonly trackingShownOnce: boolean;
  /**
   * wallet-ends-when-unknown: whether the follower ends for a wallet the provider does not know.
   * Asked only once it has said so NOT_FOUND_LIMIT times in a row, where recorded runs have it.
   */
  endsWhenUnknown(): boolean;
  /**
   * wallet-drift-shown-on-change: whether a reconciliation writes BalanceDrift only when it changes.
   * Asked at each reconciliation of today's loop, where recorded runs write it (wallet/reconciliation.ts).
   */
  driftShownOnChange(): boolean;
  /**
   * wallet-ledger-v2: marks, as the run continues as new, that it carries its ledger with settled
   * records (runs from before carried ids only), so that workers from before it stay off the run.
   */
  markCarriesSettledRecords(): void;
}

/** A run that recorded wallet-patches-as-one: today's branch of each, nothing asked. */
const AS_ONE: RunPatches = {
  firstWait: 'started-over',
  quietPolling: true,
  exactLedger: true,
  keepHeldAside: true,
  boundRecordsWhilePending: true,
  reconcilesEveryInterval: true,
  trackingShownOnce: true,
  endsWhenUnknown: () => true,
  driftShownOnChange: () => true,
  markCarriesSettledRecords: () => void patched(LEDGER_V2_PATCH),
};

/** A run that recorded wallet-patches-as-one-2: every branch of the one before, and the first wait kept. */
const AS_ONE_2: RunPatches = { ...AS_ONE, firstWait: 'kept' };

/** Decided when a run starts, before its first command. */
export function runPatches(): RunPatches {
  if (patched(WALLET_PATCHES_AS_ONE_2_PATCH)) return AS_ONE_2;
  if (patched(WALLET_PATCHES_AS_ONE_PATCH)) return AS_ONE;
  const quietPolling = patched(QUIET_POLLING_PATCH);
  const exactLedger = patched(EXACT_LEDGER_PATCH);
  const keepHeldAside = exactLedger && patched(HELD_ASIDE_KEPT_PATCH);
  const reconcilesEveryInterval = patched(RECONCILE_PATCH);
  const boundRecordsWhilePending = exactLedger && patched(RECORDS_BOUNDED_PATCH);
  return {
    firstWait: 'started-over',
    boundRecordsWhilePending,
    quietPolling,
    exactLedger,
    keepHeldAside,
    reconcilesEveryInterval,
    trackingShownOnce: false,
    endsWhenUnknown: () => patched(UNKNOWN_WALLET_PATCH),
    driftShownOnChange: () => patched(DRIFT_SHOWN_ON_CHANGE_PATCH),
    markCarriesSettledRecords: () => void patched(LEDGER_V2_PATCH),
  };
}
