import { z } from 'zod';
import { epochMs, paymentMethodId, unknownNullable, userOwner } from './common.js';
import { countryCode } from './account.js';

// docs/provider-contract.md §2.2, §3.1 and §OP-5.
export const paymentMethodStatus = z.enum(['PENDING', 'AWAITING_FOLLOWUP', 'ACTIVE', 'REJECTED', 'APPROVED']);

export const waitingPrompt = z.object({ id: z.string(), prompt: z.string(), type: z.string() });

export const paymentMethod = z.object({
  id: paymentMethodId,
  srn: z.string().startsWith('paymentmethod:'),
  owner: z.string(),
  createdAt: epochMs,
  name: z.string(),
  defaultCurrency: z.string(),
  status: paymentMethodStatus,
  statusMessage: z.string().nullable(),
  waitingPrompts: z.array(waitingPrompt),
  linkType: z.enum(['INTERNATIONAL_TRANSFER', 'LOCAL_TRANSFER']),
  beneficiaryType: z.string(),
  supportsDeposit: z.boolean(),
  supportsPayment: z.boolean(),
  disabled: z.boolean(),
  nameOnMethod: z.string().nullable(),
  last4Digits: z.string(),
  brand: z.string().nullable(),
  expirationDisplay: z.string().nullable(),
  countryCode: z.string(),
  nickname: z.string().nullable(),
  rejectionMessage: z.string().nullable(),
  chargeableCurrencies: z.array(z.string()),
  depositableCurrencies: z.array(z.string()),
  // Shown only as null in the reference record: accepted as null or any value.
  chargeFeeSchedule: unknownNullable,
  depositFeeSchedule: unknownNullable,
  minCharge: unknownNullable,
  maxCharge: unknownNullable,
  minDeposit: unknownNullable,
  maxDeposit: unknownNullable,
  documents: z.array(z.unknown()),
  blockchains: z.record(z.string(), z.string()).optional(),
});
export type PaymentMethod = z.infer<typeof paymentMethod>;

const attachList = z.union([
  z.tuple([z.literal('ALL')]),
  z.array(z.string().regex(/^[A-Z0-9]{2,10}$/, 'a currency code such as BTC')),
]);

/** Creation body: the contract shows none; these are the fields the sandbox and the real service's docs use. */
export const createPaymentMethodRequest = z.object({
  paymentMethodType: z.enum(['LOCAL_TRANSFER', 'WIRE_TRANSFER']),
  country: countryCode,
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/)
    .default('USD'),
  beneficiaryType: z.enum(['INDIVIDUAL', 'CORPORATE', 'UNKNOWN']).default('INDIVIDUAL'),
  accountNumber: z.string().regex(/^\d{4,17}$/, 'accountNumber must be 4 to 17 digits'),
  routingNumber: z
    .string()
    .regex(/^\d{9}$/, 'routingNumber must be 9 digits')
    .optional(),
  nameOnMethod: z.string().min(1).optional(),
  nickname: z.string().optional(),
  /** docs/provider-contract.md §2.2 rule 2: currency codes, or ALL. */
  attachBlockchains: attachList.optional(),
  /** A payment method of a user: `user:US_...` (with masqueradeAs the same user). */
  owner: userOwner.optional(),
});
export type CreatePaymentMethodRequest = z.input<typeof createPaymentMethodRequest>;

export const attachBlockchainsRequest = z.object({
  blockchain: z
    .string()
    .regex(
      /^(ALL|[A-Z0-9]{2,10}(,[A-Z0-9]{2,10})*)$/,
      'blockchain must be ALL or comma-separated currency codes such as BTC,ETH',
    ),
  notifyUrl: z.url().optional(),
  muteMessages: z.boolean().optional(),
});
export type AttachBlockchainsRequest = z.input<typeof attachBlockchainsRequest>;

export const paymentMethodList = z.object({ data: z.array(paymentMethod) });
