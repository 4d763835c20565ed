import { compare, type Decimal, decimal } from '../../src/decimal.js';
import type { Balance } from './ledger.js';

// The wallet's ledger against the provider's own balances. Pure: the workflow reports what this
// finds and never corrects the ledger from it (a drift is a question for a person).

export interface Drift {
  currency: string;
  /** Confirmed, as the ledger counted it: a decimal string. */
  ledger: Decimal;
  /** Available, as the provider reports it: a decimal string. */
  provider: Decimal;
  /** The ledger's balance in this currency was carried from before exact amounts (see Balance). */
  approximate?: true;
}

export interface Reconciliation {
  /** Epoch ms of the provider's answer. */
  checkedAt: number;
  drift: Drift[];
}

/**
 * Exact, with no tolerance: one wei apart is a drift, equal is none. The provider's balances are
 * numbers in answers recorded before exact amounts: read as String(n).
 */
export function findDrift(
  ledger: Record<string, Balance>,
  providerAvailable: Record<string, Decimal | number>,
): Drift[] {
  const currencies = [...new Set([...Object.keys(ledger), ...Object.keys(providerAvailable)])].sort();
  return currencies.flatMap((currency) => {
    const counted = ledger[currency]?.confirmed ?? '0';
    const reported = decimal(providerAvailable[currency] ?? 0, `the provider's ${currency} balance`);
    if (compare(counted, reported) === 0) return [];
    return [
      {
        currency,
        ledger: counted,
        provider: reported,
        ...(ledger[currency]?.approximate ? { approximate: true } : {}),
      },
    ];
  });
}
