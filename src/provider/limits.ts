import { compare, type Decimal } from '../decimal.js';

// docs/provider-contract.md §8: higher card-purchase limits (USD) for verified DEBIT_CARD_L2 users; the weekly
// value stands in for the daily one the contract does not show. Pure: workflows and the sandbox share it.
export const HIGHER_LIMITS = {
  US: { daily: 7_500, weekly: 7_500, monthly: 7_500, yearly: 100_000 },
  INTERNATIONAL: { daily: 10_000, weekly: 10_000, monthly: 25_000, yearly: 250_000 },
} as const;

export const higherLimitsFor = (country: string) => (country === 'US' ? HIGHER_LIMITS.US : HIGHER_LIMITS.INTERNATIONAL);

/**
 * The first limit an amount would exceed, as the provider's errorCode names it. Limits are USD
 * (docs/provider-contract.md §8); an amount in another currency is compared as it is, the provider having the last word.
 * Exact decimals; numbers where a history recorded before exact amounts holds them.
 */
export function exceededLimit(
  remaining: Record<'dailyRemaining' | 'weeklyRemaining' | 'yearlyRemaining', Decimal | number>,
  amount: Decimal | number,
): string | undefined {
  if (compare(amount, remaining.dailyRemaining) > 0) return 'limits.dailyLimitReached';
  if (compare(amount, remaining.weeklyRemaining) > 0) return 'limits.weeklyLimitReached';
  if (compare(amount, remaining.yearlyRemaining) > 0) return 'limits.yearlyLimitReached';
  return undefined;
}

/** Whether a limit is at least `expected` (a limits answer's decimal, or a number from an older history). */
export const atLeast = (limit: Decimal | number, expected: number): boolean => compare(limit, expected) >= 0;
