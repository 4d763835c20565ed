// The id of every patch the workflows branch on, one constant each: a `patched(...)` call names one
// of them, never a string (test/unit/patches.test.ts scans the sources). What each changed, where it
// is used and which recorded histories cover it is the register, ./patches.ts, which workflow code
// never imports (it is data for people and tests, not for every workflow's bundle).

/**
 * The carried ledger keeps settled records with amounts (version 2); runs from before carried ids
 * only, which workflows/wallet/legacy-carried-ledger.ts reads. Asked as a run continues as new.
 */
export const LEDGER_V2_PATCH = 'wallet-ledger-v2';
/** The ledger is compared with the provider's balances at an interval. */
export const RECONCILE_PATCH = 'wallet-reconcile';
/** A follower ends when the provider says, poll after poll, that the wallet does not exist. */
export const UNKNOWN_WALLET_PATCH = 'wallet-ends-when-unknown';
/**
 * A wallet polls less the quieter it is (workflows/lib/poll-schedule.ts, wallet/watch.ts), a
 * poll returns only what changed since a cursor, and a wallet just opened is not polled at once.
 * A run without its marker follows its wallet as before, in workflows/wallet/legacy-polling.ts.
 */
export const QUIET_POLLING_PATCH = 'wallet-quiet-polling';
/**
 * The ledger counts exact decimal amounts and carries them as decimal strings (version 3 of
 * workflows/wallet/ledger.ts); a run started before it carried numbers, which
 * workflows/wallet/legacy-carried-ledger.ts reads, and counts and reconciles as
 * workflows/wallet/legacy-float-ledger.ts does. Checked once when a run starts: the run's marker
 * keeps workers from before it off the run.
 */
export const EXACT_LEDGER_PATCH = 'wallet-exact-ledger';
/**
 * Every process reminds the same way (lib/reminders.ts; ACH and onboarding had loops of their
 * own, KYC's was this one already). Runs that started before it keep their old loops
 * (lib/legacy-reminders.ts) until they end.
 */
export const REMINDERS_WHILE_OWED_PATCH = 'reminders-while-owed';
/** A process deletes the claims it is done with (lib/claims.ts); before, only the retention sweep did. */
export const DELETE_CLAIMS_PATCH = 'delete-claims-after-use';
/**
 * Opening a wallet creates it at the provider in a local activity (a marker in the opening's
 * workflow task) instead of an activity task: one workflow task and one task dispatch fewer.
 */
export const LOCAL_WALLET_CREATE_PATCH = 'open-wallet-local-create';
/**
 * A transaction held aside for an impossible createdAt (stored with no time) keeps its settled
 * record for as long as the wallet lives, outside the record bound: before, the count pushed it
 * out and a resend was counted again. Checked once when a run starts, after wallet-exact-ledger.
 */
export const HELD_ASIDE_KEPT_PATCH = 'wallet-held-aside-kept';
