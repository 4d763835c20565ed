import { z } from 'zod';
import { amounts, epochMs, walletId } from './common.js';

export const walletType = z.enum(['DEFAULT', 'ENTERPRISE', 'SAVINGS']);
export type WalletType = z.infer<typeof walletType>;

// docs/provider-contract.md §4.1: verificationData carries personal data; it is accepted here but never put in workflow history.
export const verificationData = z.object({
  firstName: z.string().optional(),
  middleName: z.string().optional(),
  lastName: z.string().optional(),
  ssn: z.string().optional(),
  passport: z.string().optional(),
  birthDay: z.string().optional(),
  birthMonth: z.string().optional(),
  birthYear: z.string().optional(),
  phoneNumber: z.string().optional(),
  address: z
    .object({
      street1: z.string().optional(),
      street2: z.string().optional(),
      city: z.string().optional(),
      state: z.string().optional(),
      postalCode: z.string().optional(),
      country: z.string().optional(),
    })
    .optional(),
});

export const createWalletRequest = z.object({
  name: z.string().trim().min(1, "name is required: the caller's unique identifier for the user").max(256),
  callbackUrl: z.url({ protocol: /^https?$/ }).optional(),
  notes: z.string().max(2000).optional(),
  type: walletType.optional(),
  verificationData: verificationData.optional(),
});
export type CreateWalletRequest = z.infer<typeof createWalletRequest>;

// docs/provider-contract.md §2.1.
export const wallet = z.object({
  id: walletId,
  srn: z.string().startsWith('wallet:'),
  name: z.string(),
  owner: z.string(),
  type: walletType,
  status: z.string().nullable(),
  createdAt: epochMs,
  callbackUrl: z.string().nullable(),
  notes: z.string().nullable(),
  depositAddresses: z.record(z.string(), z.string()),
  balances: amounts,
  totalBalances: amounts,
  availableBalances: amounts,
  realtimeChannel: z.string().optional(),
  verificationData: z.unknown().optional(),
});
export type Wallet = z.infer<typeof wallet>;
