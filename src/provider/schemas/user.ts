import { z } from 'zod';
import { amounts, epochMs, userId } from './common.js';
import { accountStatus } from './account.js';

// docs/provider-contract.md §2.7 and §OP-3.
export const DEBIT_CARD_L2 = 'DEBIT_CARD_L2';

export const createUserRequest = z.object({
  fields: z.record(z.string(), z.unknown()).default({}),
  blockchains: z
    .array(z.string().regex(/^(ALL|[A-Z0-9]{2,10})$/, 'blockchains holds currency codes or ALL'))
    .default([]),
  immediate: z.boolean().default(false),
  scopes: z.array(z.string().regex(/^[A-Z0-9_]+$/, 'a scope is an upper-case name such as DEBIT_CARD_L2')).default([]),
});
export type CreateUserRequest = z.input<typeof createUserRequest>;

export const user = z.object({
  id: userId,
  status: accountStatus,
  fields: z.record(z.string(), z.unknown()).default({}),
  depositAddresses: z.record(z.string(), z.string()).optional(),
  totalBalances: amounts.optional(),
  availableBalances: amounts.optional(),
  scopes: z.array(z.string()).optional(),
  createdAt: epochMs.optional(),
});
export type User = z.infer<typeof user>;

// docs/provider-contract.md §2.8.
export const verificationLink = z.object({
  accountId: z.string(),
  verificationApplicantId: z.string(),
  verificationLinkUrl: z.url(),
});
export type VerificationLink = z.infer<typeof verificationLink>;
