// Spec 8: higher card-purchase limits (USD) by country, for users with DEBIT_CARD_L2 who passed
// the extra verification. Daily limits are not shown in the spec: the weekly value stands in
// for them. Pure, so that workflows (which confirm the limits) and the sandbox share one table.
export const HIGHER_LIMITS = {
  US: { daily: 7_500, weekly: 7_500, monthly: 7_500, yearly: 100_000 },
  INTERNATIONAL: { daily: 10_000, weekly: 10_000, monthly: 25_000, yearly: 250_000 },
} as const;

export const higherLimitsFor = (country: string) => (country === 'US' ? HIGHER_LIMITS.US : HIGHER_LIMITS.INTERNATIONAL);

/**
 * The first limit an amount would exceed, as the provider's errorCode names it. Limits are USD
 * (spec 8); an amount in another currency is compared as it is, the provider having the last word.
 */
export function exceededLimit(
  remaining: { dailyRemaining: number; weeklyRemaining: number; yearlyRemaining: number },
  amount: number,
): string | undefined {
  if (amount > remaining.dailyRemaining) return 'limits.dailyLimitReached';
  if (amount > remaining.weeklyRemaining) return 'limits.weeklyLimitReached';
  if (amount > remaining.yearlyRemaining) return 'limits.yearlyLimitReached';
  return undefined;
}
