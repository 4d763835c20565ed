import { z } from 'zod';
import { accountId, userId } from './common.js';
import { countryCode } from './account.js';

// Spec 4.6 and open-points "Limits calculation".
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
  dailyTotalSpent: z.number(),
  weeklyTotalSpent: z.number(),
  yearlyTotalSpent: z.number(),
  dailyTotal: z.number(),
  weeklyTotal: z.number(),
  yearlyTotal: z.number(),
  dailyRemaining: z.number(),
  weeklyRemaining: z.number(),
  yearlyRemaining: z.number(),
});
export type Limits = z.infer<typeof limits>;
