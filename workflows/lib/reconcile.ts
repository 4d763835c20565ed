import type { Balance } from './ledger.js';

// The wallet's ledger against the provider's own balances. Pure: the workflow reports what this
// finds and never corrects the ledger from it (a drift is a question for a person).

export interface Drift {
  currency: string;
  /** Confirmed, as the ledger counted it. */
  ledger: number;
  /** Available, as the provider reports it. */
  provider: number;
}

export interface Reconciliation {
  /** Epoch ms of the provider's answer. */
  checkedAt: number;
  drift: Drift[];
}

/** Amounts closer than this are equal: sums of decimals in binary floating point. */
const EPSILON = 1e-9;

export function findDrift(ledger: Record<string, Balance>, providerAvailable: Record<string, number>): Drift[] {
  const currencies = [...new Set([...Object.keys(ledger), ...Object.keys(providerAvailable)])].sort();
  return currencies.flatMap((currency) => {
    const counted = ledger[currency]?.confirmed ?? 0;
    const reported = providerAvailable[currency] ?? 0;
    return Math.abs(counted - reported) > EPSILON ? [{ currency, ledger: counted, provider: reported }] : [];
  });
}
