import type { z } from 'zod';
import type { openWalletInput, walletInput } from './inputs.schema.js';
import { type Check, fail, int, object, oneOf, optional, string, withDefault } from '../lib/input-check.js';
import { id } from '../lib/shared-checks.js';

// What the wallet workflows check on their input (workflows/wallet/inputs.schema.ts in zod).

const pollMs = int({ min: 100 });
const reconcileMs = int({ min: 1_000 });
// A follower's own check refuses only what no run can have started with: the ingress started
// followers with the configured durations, which were any positive duration before the config
// asked for the schema's minimums. A stricter check would fail running wallets on replay.
const anyPositiveMs = int({ min: 1 });

/** A follower's own fields; what a run carries across continue-as-new is its own business and is not checked. */
export const checkWalletInput: Check<z.output<typeof walletInput>> = object({
  walletId: id('WA', 'a wallet id'),
  name: optional(string()),
  pollIntervalMs: anyPositiveMs,
  pollMaxMs: optional(anyPositiveMs),
  reconcileIntervalMs: optional(anyPositiveMs),
  // At least 1 here, 50 in the schema: tests start followers that continue as new at once.
  maxHistoryEvents: withDefault(int({ min: 1 }), () => 10_000),
});

/** Trimmed, then 1 to `max` characters (zod's z.string().trim().min(1, message).max(max)). */
const trimmed =
  (max: number, emptyMessage: string): Check<string> =>
  (value, field) => {
    const text = string()(value, field).trim();
    if (text.length === 0) fail(field, emptyMessage);
    if (text.length > max) fail(field, `must be at most ${max} characters`);
    return text;
  };

const atMost =
  (max: number): Check<string> =>
  (value, field) => {
    const text = string()(value, field);
    if (text.length > max) fail(field, `must be at most ${max} characters`);
    return text;
  };

export const checkOpenWalletInput: Check<z.output<typeof openWalletInput>> = object({
  name: trimmed(256, "name is required: your unique identifier for the wallet's user"),
  type: optional(oneOf(['DEFAULT', 'ENTERPRISE', 'SAVINGS'] as const, 'must be DEFAULT, ENTERPRISE or SAVINGS')),
  notes: optional(atMost(2000)),
  pollIntervalMs: pollMs,
  pollMaxMs: optional(pollMs),
  reconcileIntervalMs: optional(reconcileMs),
});
