import { z } from 'zod';
import { currencyCode, orderId, positiveAmount, transferId, userId } from '../../src/provider/schemas/common.js';
import {
  CHECKOUT_DEST,
  CHECKOUT_DEST_MESSAGE,
  COLLECTED_BY_HOSTED_PAGE,
  COLLECTED_BY_HOSTED_PAGE_MESSAGE,
  ORDER_REF_MESSAGE,
  REDIRECT_NAMES_NOTHING_MESSAGE,
  REQUIRE_HIGHER_LIMITS_MESSAGE,
} from './contract.js';
import { orderStatus } from '../../src/provider/schemas/reservation.js';
import { limitsAnswer, timing } from '../lib/messages.schema.js';

// The checkout's messages as zod schemas, for its client; the workflow checks the same with
// workflows/checkout/checks.ts (see ./messages.schema.ts).

/** The backend's own reference for its order: a business key, never personal data. */
export const orderRef = z.string().regex(/^[A-Za-z0-9_.-]{1,100}$/, ORDER_REF_MESSAGE);

/** The buyer's personal data of docs/provider-contract.md §2.6 is refused by name: the hosted page collects it, so it never enters history. */
const notHere = z.never({ message: COLLECTED_BY_HOSTED_PAGE_MESSAGE }).optional();
const collectedByHostedPage = Object.fromEntries(COLLECTED_BY_HOSTED_PAGE.map((key) => [key, notHere])) as Record<
  (typeof COLLECTED_BY_HOSTED_PAGE)[number],
  typeof notHere
>;

export const checkoutInput = z
  .object({
    orderRef,
    /** Exact: a decimal string ("49.99") or a JSON number; a decimal string in the workflow. */
    sourceAmount: positiveAmount,
    sourceCurrency: currencyCode,
    destCurrency: currencyCode,
    dest: z.string().regex(CHECKOUT_DEST, CHECKOUT_DEST_MESSAGE),
    redirectUrl: z.url().optional(),
    failureRedirectUrl: z.url().optional(),
    /**
     * The provider's user (US_...) the purchase is for: its limits are checked, and once approved
     * for higher limits it owns the reservation (docs/provider-contract.md §8 rule 1).
     */
    userId: userId.optional(),
    /**
     * Wait until the user is approved before reserving. The checkout polls the user's status itself
     * rather than waiting on the onboarding workflow: a workflow cannot read another one's result or
     * query it, and the provider is the authority on approval anyway.
     */
    requireHigherLimits: z.boolean().default(false),
    timing: timing.default(timing.parse({})),
    ...collectedByHostedPage,
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.requireHigherLimits && !v.userId)
      ctx.addIssue({
        code: 'custom',
        path: ['userId'],
        message: REQUIRE_HIGHER_LIMITS_MESSAGE,
      });
  });

/** What a backend learnt from the redirect to its redirectUrl (docs/provider-contract.md §OP-8): a hint to look now. */
export const purchaseRedirect = z
  .object({
    transferId: transferId.optional(),
    orderId: orderId.optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (!v.transferId && !v.orderId)
      ctx.addIssue({
        code: 'custom',
        path: ['orderId'],
        message: REDIRECT_NAMES_NOTHING_MESSAGE,
      });
  });

// What the process answers: its state (query and the purchaseRedirect update), the hosted page
// (the hostedPage update) and its result.

export const checkoutStage = z.enum([
  'WAITING_FOR_APPROVAL',
  'CHECKING_LIMITS',
  'RESERVING',
  'WAITING_FOR_PURCHASE',
  'CONFIRMING',
  'DONE',
]);
export const checkoutOutcome = z.enum(['COMPLETED', 'FAILED', 'EXPIRED', 'OVER_LIMIT', 'NOT_APPROVED']);

export const hostedPage = z.object({
  /** The hosted purchase page; its query carries accountId and reservation. */
  url: z.url(),
  reservation: z.string().min(1),
});

export const checkoutState = z.object({
  orderRef,
  stage: checkoutStage,
  limits: limitsAnswer.nullable(),
  reservation: z.string().nullable(),
  url: z.url().nullable(),
  orderId: z.string().nullable(),
  orderStatus: orderStatus.nullable(),
  transferId: z.string().nullable(),
  failureReason: z.string().nullable(),
  redirectsReceived: z.number().int().min(0),
  outcome: checkoutOutcome.nullable(),
});

export const checkoutResult = z.object({
  outcome: checkoutOutcome,
  orderRef,
  reservation: z.string().nullable(),
  orderId: z.string().nullable(),
  transferId: z.string().nullable(),
  /** The provider's reason (FAILED), the limit that the amount exceeds (OVER_LIMIT), or why approval never came. */
  failureReason: z.string().nullable(),
});

/** The details of CheckoutEnded: a hosted page asked of a checkout that ended without one. */
export const checkoutEndedDetails = z.object({
  outcome: checkoutOutcome.nullable(),
  failureReason: z.string().nullable(),
});
