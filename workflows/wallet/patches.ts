// The wallet workflow's patches, oldest first. Wallet workflows never finish: each patch stays
// until every wallet has continued-as-new on code that has it (see the README's "Changing a
// workflow"), and the histories in test/histories prove that runs from before each still replay.

/** The carried ledger keeps settled records with amounts (workflows/wallet/ledger.ts, version 2). */
export const LEDGER_V2_PATCH = 'wallet-ledger-v2';
/** The ledger is compared with the provider's balances at an interval. */
export const RECONCILE_PATCH = 'wallet-reconcile';
/** A follower ends when the provider says, poll after poll, that the wallet does not exist. */
export const UNKNOWN_WALLET_PATCH = 'wallet-ends-when-unknown';
/**
 * A wallet polls less the quieter it is (workflows/lib/poll-schedule.ts, wallet/watch.ts), a
 * poll returns only what changed since a cursor, and a wallet just opened is not polled at once.
 */
export const QUIET_POLLING_PATCH = 'wallet-quiet-polling';
/**
 * The ledger counts exact decimal amounts and carries them as decimal strings (version 3 of
 * workflows/wallet/ledger.ts); a run started before it carried numbers, which fromCarried reads.
 * Checked once when a run starts: the run's marker keeps workers from before it off the run.
 */
export const EXACT_LEDGER_PATCH = 'wallet-exact-ledger';
