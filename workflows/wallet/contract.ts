// This process's contract, shared by its workflow, checks, zod schema and client: no zod, nothing that runs.

/**
 * The id of the workflow that follows a wallet. It reads as the wallet's SRN, which callbacks carry
 * as `dest`, but it is a Temporal workflow id, not an SRN: written out here rather than built with
 * walletSrn (src/provider/srn.ts), so that running workflows keep their ids whatever SRNs become.
 */
export const walletWorkflowId = (walletId: string) => `wallet:${walletId}`;

/**
 * The workflow that creates a wallet is keyed by the caller's name for it (a business key). A wallet
 * opened to be followed in the same workflow keeps this id for as long as it lives.
 */
export const openWalletWorkflowId = (name: string) => `open-wallet:${name}`;

/**
 * Who follows a wallet once it is created: a child workflow `wallet:<walletId>` (absent: what
 * clients that predate it start), or the opening workflow itself, which saves a workflow per wallet.
 */
export const WALLET_FOLLOWERS = ['child', 'this-workflow'] as const;
export type WalletFollower = (typeof WALLET_FOLLOWERS)[number];

/** The query parameter of a wallet's callback URL that names the wallet's workflow by the caller's name. */
export const CALLBACK_WALLET_PARAM = 'wallet';

/**
 * The callback URL of a wallet followed in its opening workflow: the ingress's callback route with
 * the wallet's name, so that a callback goes straight to `open-wallet:<name>` (a callback names the
 * wallet only by its provider id, which that workflow id does not hold).
 */
export const walletCallbackUrl = (callbacksUrl: string, name: string) =>
  `${callbacksUrl}?${CALLBACK_WALLET_PARAM}=${encodeURIComponent(name)}`;

/** A follower continues as new once its history reaches this many events, unless its input says. */
export const MAX_HISTORY_EVENTS = 10_000;

/** How a wallet's follower polls and reconciles when its input leaves a duration out, and the least it takes. */
export { WALLET_TIMING_DEFAULTS, WALLET_TIMING_MINIMUMS } from '../../src/process-defaults.js';
