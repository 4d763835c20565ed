import { int, object, oneOf, optional, string, withDefault } from '../lib/input-check.js';
import { id } from '../lib/shared-checks.js';
import { MAX_HISTORY_EVENTS, WALLET_FOLLOWERS } from './contract.js';

// What the wallet workflows check on their input: its one definition (zod: ./inputs.schema.ts).

// A follower's own check refuses only what no run can have started with: the ingress started
// followers with the configured durations, which were any positive duration before the config
// asked for the schema's minimums. A stricter check would fail running wallets on replay.
const pollMs = int({ min: 100, workflowMin: 1 });
const reconcileMs = int({ min: 1_000, workflowMin: 1 });

/** A follower's own fields; what a run carries across continue-as-new is its own business and is not checked. */
export const checkWalletInput = object({
  walletId: id('WA', 'a wallet id'),
  name: optional(string()),
  /** How often the provider is polled, so that a lost callback is still seen. */
  pollIntervalMs: pollMs,
  /** The longest wait between polls of a quiet wallet (WALLET_POLL_MAX); the default is 90 minutes. */
  pollMaxMs: optional(pollMs),
  /** How often the ledger is compared with the provider's balances (WALLET_RECONCILE_INTERVAL). */
  reconcileIntervalMs: optional(reconcileMs),
  /**
   * Continue-as-new once history reaches this many events (the server's suggestion also counts).
   * At least 1 in the workflow: tests start followers that continue as new at once.
   */
  maxHistoryEvents: withDefault(int({ min: 50, workflowMin: 1 }), MAX_HISTORY_EVENTS),
});

export const checkOpenWalletInput = object({
  name: string({
    trim: true,
    minLength: 1,
    tooShort: "name is required: your unique identifier for the wallet's user",
    maxLength: 256,
  }),
  type: optional(oneOf(['DEFAULT', 'ENTERPRISE', 'SAVINGS'], 'must be DEFAULT, ENTERPRISE or SAVINGS')),
  notes: optional(string({ maxLength: 2000 })),
  /** Who follows the wallet (WalletFollower); absent, a child workflow as before. */
  follower: optional(oneOf(WALLET_FOLLOWERS, `must be one of ${WALLET_FOLLOWERS.join(', ')}`)),
  pollIntervalMs: int({ min: 100 }),
  pollMaxMs: optional(int({ min: 100 })),
  reconcileIntervalMs: optional(int({ min: 1_000 })),
  /** With follower this-workflow: the follower's continue-as-new threshold (its own field, above). */
  maxHistoryEvents: optional(int({ min: 50, workflowMin: 1 })),
});
