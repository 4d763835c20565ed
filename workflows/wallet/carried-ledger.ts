import { type LedgerState, ledgerFromCarried } from './ledger.js';
import { fromOlderShape, type LedgerStateV1, type LedgerStateV2 } from './legacy-carried-ledger.js';

// What a wallet's run carries across continue-as-new (or returns), read in every shape it ever had.

/** Any ledger a run may carry: the current shape, or one from before. */
export type CarriedLedger = LedgerState | LedgerStateV2 | LedgerStateV1;

/** The ledger a new run starts from: what the previous run carried, in any shape. */
export function fromCarried(carried: CarriedLedger): LedgerState {
  return ledgerFromCarried('version' in carried && carried.version === 3 ? carried : fromOlderShape(carried));
}
