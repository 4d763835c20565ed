// The contract of this process that its workflow, its checks, its zod schema and its client share:
// workflow ids and the constants its messages are checked against. No zod, nothing that runs.

/**
 * The id of the workflow that follows a wallet. It reads as the wallet's SRN, which callbacks carry
 * as `dest`, but it is a Temporal workflow id, not an SRN: written out here rather than built with
 * walletSrn (src/provider/srn.ts), so that running workflows keep their ids whatever SRNs become.
 */
export const walletWorkflowId = (walletId: string) => `wallet:${walletId}`;

/** The workflow that creates a wallet is keyed by the caller's name for it (a business key). */
export const openWalletWorkflowId = (name: string) => `open-wallet:${name}`;

/**
 * How a wallet's follower polls and reconciles when its input leaves a duration out, in
 * milliseconds: the defaults of WALLET_POLL_INTERVAL, WALLET_POLL_MAX and WALLET_RECONCILE_INTERVAL.
 */
export const WALLET_TIMING_DEFAULTS = {
  /** The shortest wait between two polls, after activity. */
  pollIntervalMs: 60_000,
  /** The longest wait between polls of a quiet wallet: 16 polls a day. */
  pollMaxMs: 90 * 60_000,
  /** How often the ledger is compared with the provider's balances. */
  reconcileIntervalMs: 6 * 3_600_000,
} as const;
