// This process's contract, shared by its workflow, checks, zod schema and client: no zod, nothing that runs.

/**
 * The id of the workflow that follows a wallet. It reads as the wallet's SRN, which callbacks carry
 * as `dest`, but it is a Temporal workflow id, not an SRN: written out here rather than built with
 * walletSrn (src/provider/srn.ts), so that running workflows keep their ids whatever SRNs become.
 */
export const walletWorkflowId = (walletId: string) => `wallet:${walletId}`;

/** The workflow that creates a wallet is keyed by the caller's name for it (a business key). */
export const openWalletWorkflowId = (name: string) => `open-wallet:${name}`;

/** A follower continues as new once its history reaches this many events, unless its input says. */
export const MAX_HISTORY_EVENTS = 10_000;

/** How a wallet's follower polls and reconciles when its input leaves a duration out, and the least it takes. */
export { WALLET_TIMING_DEFAULTS, WALLET_TIMING_MINIMUMS } from '../../src/process-defaults.js';
