// The id of every patch the workflows branch on, one constant each: a `patched(...)` call names one
// of them, never a string (test/unit/patches.test.ts scans the sources). What each changed, where it
// is used and which recorded histories cover it is the register, ./patches.ts, which workflow code
// never imports (it is data for people and tests, not for every workflow's bundle).

export const LEDGER_V2_PATCH = 'wallet-ledger-v2';
export const RECONCILE_PATCH = 'wallet-reconcile';
export const UNKNOWN_WALLET_PATCH = 'wallet-ends-when-unknown';
export const QUIET_POLLING_PATCH = 'wallet-quiet-polling';
export const EXACT_LEDGER_PATCH = 'wallet-exact-ledger';
export const REMINDERS_WHILE_OWED_PATCH = 'reminders-while-owed';
export const DELETE_CLAIMS_PATCH = 'delete-claims-after-use';
export const LOCAL_WALLET_CREATE_PATCH = 'open-wallet-local-create';
export const HELD_ASIDE_KEPT_PATCH = 'wallet-held-aside-kept';
export const RECORDS_BOUNDED_PATCH = 'wallet-records-bounded';
export const DRIFT_SHOWN_ON_CHANGE_PATCH = 'wallet-drift-shown-on-change';
export const WALLET_PATCHES_AS_ONE_PATCH = 'wallet-patches-as-one';
export const WALLET_PATCHES_AS_ONE_2_PATCH = 'wallet-patches-as-one-2';
