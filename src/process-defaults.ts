// The defaults of the processes' durations and limits, in one place: the processes' contracts
// re-export them and the settings default to them (here because settings may not import workflows/).
// Pure numbers: workflow code imports them too.

/** Durations of a process, in milliseconds: what a start leaves out (PROCESS_* settings). */
export const PROCESS_TIMING_DEFAULTS = {
  /** First wait between two looks at the provider; doubles up to pollMaxMs. */
  pollInitialMs: 5_000,
  // At most one look every 15 minutes: a 14-day wait then costs about 1,350 looks, some 14,000
  // history events, well inside Temporal's limit of 50,000.
  pollMaxMs: 900_000,
  /** Quiet time before an end user who owes input is reminded. */
  reminderAfterMs: 86_400_000,
  /** How long the process waits for the end user in all before giving up. */
  deadlineMs: 14 * 86_400_000,
  /** How long one wait on the provider may last before the process fails as stalled (history stays bounded). */
  stallAfterMs: 30 * 86_400_000,
} as const;

/** A wallet follower's poll and reconcile durations (ms) when its input leaves them out: WALLET_* settings. */
export const WALLET_TIMING_DEFAULTS = {
  /** The shortest wait between two polls, after activity. */
  pollIntervalMs: 60_000,
  /** The longest wait between polls of a quiet wallet: 16 polls a day. */
  pollMaxMs: 90 * 60_000,
  /** How often the ledger is compared with the provider's balances. */
  reconcileIntervalMs: 6 * 3_600_000,
} as const;

/** The shortest of each wallet duration its input takes, in milliseconds. */
export const WALLET_TIMING_MINIMUMS = { pollIntervalMs: 100, pollMaxMs: 100, reconcileIntervalMs: 1_000 } as const;

/** Submissions per profile field in one KYC round before support must take over: the default, and the most a start may ask. */
export const KYC_ATTEMPTS_PER_FIELD = { default: 5, max: 50 } as const;
