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
} from '../patch-ids.js';

// Which of the wallet's patches a run follows (workflows/patches.ts), decided in one place and
// passed down by name. A replay must meet each marker where it was recorded: five before the run's
// first command, in the recorded order; three later, asked by name where recorded runs hold them.

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
  /** wallet-reconcile: the ledger is compared with the provider's balances every interval. */
  readonly reconcilesEveryInterval: boolean;
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

/** Decided when a run starts, before its first command. */
export function runPatches(): RunPatches {
  const quietPolling = patched(QUIET_POLLING_PATCH);
  const exactLedger = patched(EXACT_LEDGER_PATCH);
  const keepHeldAside = exactLedger && patched(HELD_ASIDE_KEPT_PATCH);
  const reconcilesEveryInterval = patched(RECONCILE_PATCH);
  const boundRecordsWhilePending = exactLedger && patched(RECORDS_BOUNDED_PATCH);
  return {
    boundRecordsWhilePending,
    quietPolling,
    exactLedger,
    keepHeldAside,
    reconcilesEveryInterval,
    endsWhenUnknown: () => patched(UNKNOWN_WALLET_PATCH),
    driftShownOnChange: () => patched(DRIFT_SHOWN_ON_CHANGE_PATCH),
    markCarriesSettledRecords: () => void patched(LEDGER_V2_PATCH),
  };
}
