import { z } from 'zod';
import { accountId, amount, userId } from './common.js';
import { countryCode } from './account.js';

// docs/provider-contract.md §4.6 and §OP-7.
export const limitsRequest = z.object({
  accountId,
  userId,
  walletType: z.enum(['DEBIT_CARD', 'APPLE_PAY']).optional(),
  sourceCurrency: z.string().optional(),
  address: z
    .object({
      street1: z.string().optional(),
      city: z.string().optional(),
      state: z.string().optional(),
      postalCode: z.string().optional(),
      country: countryCode.optional(),
    })
    .optional(),
});
export type LimitsRequest = z.input<typeof limitsRequest>;

export const limits = z.object({
  dailyTotalSpent: amount,
  weeklyTotalSpent: amount,
  yearlyTotalSpent: amount,
  dailyTotal: amount,
  weeklyTotal: amount,
  yearlyTotal: amount,
  dailyRemaining: amount,
  weeklyRemaining: amount,
  yearlyRemaining: amount,
});
export type Limits = z.infer<typeof limits>;
