import { type Decimal, decimal } from '../../src/decimal.js';
import type { z } from 'zod';
import { walletSrn } from '../../src/provider/srn.js';
import { type Counting, direction, type LedgerState, type RecordOptions } from './ledger.js';
import type { drift } from './messages.schema.js';

// Runs started before wallet-exact-ledger decided their reconciliations by floating-point sums
// (rounded to 10 decimals, a tolerance of 1e-9), and a drift found made a run poll and read the
// balances again (commands): replaying such a run needs the same answers, which these give, wrapped
// around today's ledger. Delete with the patch, once no wallet runs code from before it.

type Drift = z.output<typeof drift>;
/** The ledger's recent entries, all these functions read of it (./ledger.ts's LedgerState has them). */
interface RecentEntries {
  entries: Record<string, { currency: string; amount: Decimal; status: string }>;
}

/** What such a run summed in floating point beside the exact ledger: its settled totals. */
export interface FloatTotals {
  settledTotals: Record<string, number>;
}

const EPSILON = 1e-9;

/** Rounded as the old balances were: 10 decimals. */
const round = (amount: number) => Math.round(amount * 1e10) / 1e10;

/** How such a run records and reconciles, chosen once when it starts (wallet/run.ts). */
export interface AsBeforeExactLedger {
  /** Its notices counted as it did, and no time bounded by now. */
  recordOptions: Pick<RecordOptions, 'counting'>;
  driftFrom(providerAvailable: Record<string, Decimal | number>): Drift[];
}

/** Keeps the run's float totals on its ledger (carried and returned as the run did: `floatTotals`). */
export function asBeforeExactLedger(
  ledger: LedgerState,
  carried: { settledTotals: Record<string, number | string> } | undefined,
): AsBeforeExactLedger {
  const totals = (ledger.floatTotals = floatTotalsFrom(carried));
  return {
    recordOptions: { counting: countedAsBeforeExactLedger(totals) },
    driftFrom: (providerAvailable) => floatDrift(ledger, totals, providerAvailable),
  };
}

/** Such a run counted a transfer to itself as a deposit, and summed settled totals in floating point too. */
export function countedAsBeforeExactLedger(totals: FloatTotals): Counting {
  return {
    direction: (walletId, tx) =>
      tx.source === walletSrn(walletId) && tx.dest === tx.source
        ? { sign: 1, kind: 'deposit' }
        : direction(walletId, tx),
    // `amount` is the exact decimal of a number the old code held: Number() gives that number back.
    settledTotalMoved: (currency, amount, sign) => {
      totals.settledTotals[currency] = (totals.settledTotals[currency] ?? 0) + sign * Number(amount);
    },
  };
}

/** The settled totals a run from before started with: the carried numbers, as they were. */
export function floatTotalsFrom(carried: { settledTotals: Record<string, number | string> } | undefined): FloatTotals {
  const settledTotals: Record<string, number> = Object.create(null);
  for (const [currency, total] of Object.entries(carried?.settledTotals ?? {})) settledTotals[currency] = Number(total);
  return { settledTotals };
}

/** The confirmed balances as the old code summed them: settled totals, then the entries in order. */
function floatConfirmed(state: RecentEntries, totals: FloatTotals): Record<string, number> {
  const out: Record<string, number> = Object.create(null);
  for (const [currency, total] of Object.entries(totals.settledTotals)) out[currency] = (out[currency] ?? 0) + total;
  for (const entry of Object.values(state.entries)) {
    out[entry.currency] ??= 0;
    if (entry.status === 'CONFIRMED' || entry.status === 'COMPLETED') out[entry.currency]! += Number(entry.amount);
  }
  for (const currency of Object.keys(out)) out[currency] = round(out[currency]!);
  return out;
}

/**
 * The drift such a run found: currencies whose float balance and the provider's differ by more
 * than the old tolerance. Said in decimal strings, and approximate: floating point decided it.
 */
export function floatDrift(
  state: RecentEntries,
  totals: FloatTotals,
  providerAvailable: Record<string, Decimal | number>,
): Drift[] {
  const ledger = floatConfirmed(state, totals);
  const currencies = [...new Set([...Object.keys(ledger), ...Object.keys(providerAvailable)])].sort();
  return currencies.flatMap((currency) => {
    const counted = ledger[currency] ?? 0;
    const reported = Number(providerAvailable[currency] ?? 0);
    if (!(Math.abs(counted - reported) > EPSILON)) return [];
    return [
      { currency, ledger: decimal(counted), provider: decimal(providerAvailable[currency] ?? 0), approximate: true },
    ];
  });
}
