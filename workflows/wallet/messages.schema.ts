import { z } from 'zod';
import { idPattern, walletId } from '../../src/provider/schemas/common.js';
import { transaction } from '../../src/provider/schemas/transaction.js';
import { decimalAmount } from '../lib/messages.schema.js';

// The wallet processes' messages as zod schemas: the inputs (./inputs.schema.ts), and what the
// workflows answer and return, whose types ledger.ts, drift.ts and messages.ts take.

export { openWalletInput, walletInput } from './inputs.schema.js';

const count = z.number().int().min(0);
/** Epoch milliseconds (the provider's times; a time that cannot be one is held aside, not refused). */
const epochMs = z.number();

/**
 * What the ledger needs of a transaction: a verified callback as the ingress signals it, trimmed
 * (docs/provider-contract.md §2.4). The amount is exact, a canonical decimal string.
 */
export const observation = transaction
  .pick({ id: true, createdAt: true, source: true, dest: true, currency: true, status: true, confirmedAt: true })
  .extend({ amount: decimalAmount });

export const seenVia = z.enum(['callback', 'poll']);
export const entryKind = z.enum(['deposit', 'interest', 'transfer', 'outgoing']);

/** A transaction as the ledger counted it. */
export const entry = z.object({
  id: z.string(),
  currency: z.string(),
  /**
   * Exact, a canonical decimal string (src/decimal.ts), signed from the wallet's point of view:
   * negative when the wallet is the source, "0" for a transfer from the wallet to itself.
   */
  amount: decimalAmount,
  status: z.string(),
  kind: entryKind,
  source: z.string(),
  transferId: z.string().optional(),
  /** Set once the transfer behind a transfer-sourced deposit has been read (or cannot be). */
  transferResolved: z.boolean().optional(),
  createdAt: epochMs,
  confirmedAt: epochMs.optional(),
  firstSeenVia: seenVia,
  /** Its createdAt cannot be a time (see `plausibleTime`): counted, but its time moves no horizon. */
  timeHeldAside: z.literal(true).optional(),
});

export const ledgerStats = z.object({
  callbacks: count,
  duplicates: count,
  stale: count,
  polls: count,
  recoveredByPoll: count,
  /** Unknown transactions created before the horizon: not counted (see the README's wallet section). */
  expired: count,
  /** Observations whose currency is no currency code: never counted. */
  rejected: count,
  /** Ended notices for a transaction remembered from the first shape: no balance moved (wallet/legacy-carried-ledger.ts). */
  unapplied: count.optional(),
  /** Transactions whose createdAt cannot be a time: counted, but their time moves neither horizon nor poll cursor. */
  heldAside: count.optional(),
  /** Times the horizon was found moved past now by such a time, carried from before, and moved back. */
  horizonRepaired: count.optional(),
  /** Pending entries past the bound (LIMITS) moved to a record: out of the pending balance until confirmed. */
  pendingDropped: count.optional(),
});

/**
 * A settled transaction that left the recent entries: currency, signed amount (null when carried
 * from the first shape, which kept ids only: then its status is not known either), status,
 * createdAt. A tuple: thousands are carried.
 */
export const settledRecord = z.tuple([z.string(), decimalAmount.nullable(), z.string(), epochMs]);

/** A wallet's ledger as its follower carries it across continue-as-new and returns it when it ends. */
export const ledgerState = z.object({
  /** 3 since amounts are exact decimal strings (older shapes: wallet/carried-ledger.ts). */
  version: z.literal(3),
  walletId,
  /** Recent entries by id; pending ones are never evicted. */
  entries: z.record(z.string(), entry),
  /** Ids in the order first seen, for eviction and "recent" listings. */
  order: z.array(z.string()),
  /** Settled transactions evicted from `entries`, by id, oldest first, for as long as the window. */
  settled: z.record(z.string(), settledRecord),
  /** Epoch ms: an unknown transaction created before this is not counted. */
  horizon: epochMs,
  /** Confirmed amounts of evicted entries, per currency. */
  settledTotals: z.record(z.string(), decimalAmount),
  /** Currencies whose balance was carried as a floating-point sum: their balances say `approximate`. */
  approximate: z.array(z.string()).optional(),
  /** Only in a run from before wallet-exact-ledger: its floating-point totals (wallet/legacy-float-ledger.ts). */
  floatTotals: z
    .object({ settledTotals: z.record(z.string(), z.number()) })
    .optional()
    // What other languages read in schemas/messages: such a run still returns and carries them.
    .meta({
      deprecated: true,
      description:
        'Only a run started before exact amounts carries this: the approximate floating-point sums it decided its reconciliations by. Never use it as money: settledTotals and the balances are the exact amounts.',
    }),
  stats: ledgerStats,
});

export const balance = z.object({
  /** Exact, a canonical decimal string such as "161176780.13". */
  confirmed: decimalAmount,
  pending: decimalAmount,
  /** Carried from before exact amounts as a floating-point sum: see `LedgerState.approximate`. */
  approximate: z.literal(true).optional(),
});
/** A wallet's balances by currency code. */
export const walletBalances = z.record(z.string(), balance);

export const drift = z.object({
  currency: z.string(),
  /** Confirmed, as the ledger counted it: a decimal string. */
  ledger: decimalAmount,
  /** Available, as the provider reports it: a decimal string. */
  provider: decimalAmount,
  /** The ledger's balance in this currency was carried from before exact amounts (see Balance). */
  approximate: z.literal(true).optional(),
});

/** The last comparison of the ledger with the provider's balances; a drift is shown, never corrected. */
export const reconciliation = z.object({
  /** Epoch ms of the provider's answer. */
  checkedAt: epochMs,
  drift: z.array(drift),
});

/** The `wallet` query's answer. */
export const walletView = z.object({
  walletId,
  name: z.string().optional(),
  balances: walletBalances,
  recentTransactions: z.array(entry),
  stats: ledgerStats,
  /** Observations received but not yet recorded. */
  queued: count,
  /** The last comparison with the provider's balances; a drift is shown, never corrected. */
  reconciliation: reconciliation.optional(),
});

export const openWalletResult = z.object({
  walletId,
  srn: z.string().regex(new RegExp(`^wallet:${idPattern('WA')}$`)),
  /** Deposit addresses by currency code. */
  depositAddresses: z.record(z.string(), z.string()),
  /** The id of the workflow that follows the wallet's transactions. */
  walletWorkflowId: z.string(),
});

/** An observation received but not yet recorded, and how it came. */
export const inboxItem = z.object({ tx: observation, via: seenVia });

/** A wallet's follower runs as long as the wallet; it ends only for a wallet the provider does not know. */
export const walletResult = z.object({
  outcome: z.literal('UNKNOWN_WALLET'),
  walletId,
  /** Callbacks it received before it ended. */
  callbacks: count,
  /** What it counted and had not yet recorded, carried on by a run a later callback starts (follower-client.ts). */
  ledger: ledgerState.optional(),
  inbox: z.array(inboxItem).optional(),
});
