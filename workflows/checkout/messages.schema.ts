import { z } from 'zod';
import { orderStatus } from '../../src/provider/schemas/reservation.js';
import { checkCheckoutInput, checkOrderRef, checkPurchaseRedirect } from './checks.js';
import { limitsAnswer } from '../lib/messages.schema.js';
import { zodFrom } from '../lib/zod-from-check.schema.js';

// The checkout's messages as zod schemas, for its client; what the workflow checks is built from ./checks.ts.

export const orderRef = zodFrom(checkOrderRef);
export const checkoutInput = zodFrom(checkCheckoutInput);
export const purchaseRedirect = zodFrom(checkPurchaseRedirect);

// What the process answers: its state (query, purchaseRedirect), the hosted page and its result.

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
