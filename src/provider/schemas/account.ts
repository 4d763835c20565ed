import { z } from 'zod';
import { documentFieldIds } from '../documents.js';
import { accountId, amounts, countryCode, epochMs } from './common.js';

// docs/provider-contract.md §2.3 and §OP-3.
export const profileFieldStatus = z.enum(['OPEN', 'PENDING', 'APPROVED']);
export const accountStatus = z.enum(['OPEN', 'PENDING', 'APPROVED', 'CLOSED']);

export const profileField = z.object({
  fieldId: z.string(),
  /** STRING, DOCUMENT and PAYMENT_METHOD occur; others are accepted as they come. */
  fieldType: z.string(),
  /** STRING: the value or null; DOCUMENT: document ids (DO...); PAYMENT_METHOD: a payment method id. */
  value: z.unknown(),
  note: z.string().nullable(),
  status: profileFieldStatus,
});
export type ProfileField = z.infer<typeof profileField>;

export const account = z.object({
  id: accountId,
  status: accountStatus.optional(),
  type: z.string().optional(),
  country: z.string().optional(),
  createdAt: epochMs.optional(),
  depositAddresses: z.record(z.string(), z.string()).optional(),
  totalBalances: amounts.optional(),
  availableBalances: amounts.optional(),
  profileFields: z.array(profileField),
});
export type Account = z.infer<typeof account>;

const fieldValue = z.object({
  fieldId: z.string().regex(/^[a-z][A-Za-z0-9]+$/, 'fieldId must be a profile field id such as individualSsn'),
  value: z.unknown(),
});

export { countryCode };

export const createAccountRequest = z.object({
  type: z.literal('INDIVIDUAL').default('INDIVIDUAL'),
  country: countryCode,
  profileFields: z.array(fieldValue).default([]),
  referrerAccountId: accountId.optional(),
  subaccount: z.boolean().optional(),
  disableEmail: z.boolean().optional(),
});
export type CreateAccountRequest = z.input<typeof createAccountRequest>;

/** Resubmitting profile field values (the real service's "Update Account"; not in the contract). */
export const updateAccountRequest = z.object({
  profileFields: z.array(fieldValue).min(1, 'profileFields needs at least one field'),
});
export type UpdateAccountRequest = z.input<typeof updateAccountRequest>;

export { documentFieldIds };
export const documentFieldId = z.enum(documentFieldIds, {
  message: `fieldId must be one of ${documentFieldIds.join(', ')}`,
});
