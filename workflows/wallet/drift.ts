import type { z } from 'zod';
import type { drift, reconciliation } from './messages.schema.js';
import { compare, type Decimal, decimal } from '../../src/decimal.js';
import type { Balance } from './ledger.js';

// The ledger against the provider's balances: a drift is reported, never corrected (it is for a person).

export type Drift = z.output<typeof drift>;
/** The last comparison of the ledger with the provider's balances (its schema: workflows/wallet/messages.schema.ts). */
export type Reconciliation = z.output<typeof reconciliation>;

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
