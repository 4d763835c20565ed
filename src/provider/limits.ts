// Spec 8: higher card-purchase limits (USD) by country, for users with DEBIT_CARD_L2 who passed
// the extra verification. Daily limits are not shown in the spec: the weekly value stands in
// for them. Pure, so that workflows (which confirm the limits) and the sandbox share one table.
export const HIGHER_LIMITS = {
  US: { daily: 7_500, weekly: 7_500, monthly: 7_500, yearly: 100_000 },
  INTERNATIONAL: { daily: 10_000, weekly: 10_000, monthly: 25_000, yearly: 250_000 },
} as const;

export const higherLimitsFor = (country: string) => (country === 'US' ? HIGHER_LIMITS.US : HIGHER_LIMITS.INTERNATIONAL);
