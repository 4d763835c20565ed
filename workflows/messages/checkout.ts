import { defineQuery, defineUpdate } from '@temporalio/workflow';
import { z } from 'zod';
import {
  currencyCode,
  idPattern,
  orderId,
  positiveAmount,
  transferId,
  userId,
} from '../../src/provider/schemas/common.js';
import type { Limits } from '../../src/provider/schemas/limits.js';
import { timing } from './common.js';

// Reservation checkout (spec 2.6, 4.3, open-points "Reservations and card purchases"): messages
// shared by the workflow and its client.

/** The backend's own reference for its order: a business key, never personal data. */
export const orderRef = z
  .string()
  .regex(/^[A-Za-z0-9_.-]{1,100}$/, 'orderRef must be 1 to 100 letters, digits, _ . or -');

export const checkoutWorkflowId = (ref: string) => `checkout:${ref}`;

/** The buyer's personal data of spec 2.6 is refused by name: the hosted page collects it, so it never enters history. */
const notHere = z.never({ message: 'personal data is collected by the hosted page; leave it out' }).optional();
const collectedByHostedPage = {
  email: notHere,
  phone: notHere,
  firstName: notHere,
  lastName: notHere,
  street1: notHere,
  city: notHere,
  state: notHere,
  postalCode: notHere,
};

export const checkoutInput = z
  .object({
    orderRef,
    /** Exact: a decimal string ("49.99") or a JSON number; a decimal string in the workflow. */
    sourceAmount: positiveAmount,
    sourceCurrency: currencyCode,
    destCurrency: currencyCode,
    dest: z
      .string()
      .regex(
        new RegExp(`^(?:wallet:${idPattern('WA')}|account:${idPattern('AC')})$`),
        'dest must be an SRN such as wallet:WA_<id> or account:AC_<id>',
      ),
    redirectUrl: z.url().optional(),
    failureRedirectUrl: z.url().optional(),
    /**
     * The provider's user (US_...) the purchase is for: its limits are checked, and once approved
     * for higher limits it owns the reservation (spec 8 rule 1).
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
        message: 'requireHigherLimits needs the userId of the user to wait for',
      });
  });
export type CheckoutInput = Omit<z.input<typeof checkoutInput>, keyof typeof collectedByHostedPage>;

/** What a backend learnt from the redirect to its redirectUrl (open-points): a hint to look now. */
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
        message: 'send the orderId or the transferId of the redirect',
      });
  });
export type PurchaseRedirect = z.infer<typeof purchaseRedirect>;

export interface HostedPage {
  /** The hosted purchase page; its query carries accountId and reservation. */
  url: string;
  reservation: string;
}

export type CheckoutStage =
  'WAITING_FOR_APPROVAL' | 'CHECKING_LIMITS' | 'RESERVING' | 'WAITING_FOR_PURCHASE' | 'CONFIRMING' | 'DONE';
export type CheckoutOutcome = 'COMPLETED' | 'FAILED' | 'EXPIRED' | 'OVER_LIMIT' | 'NOT_APPROVED';

export interface CheckoutState {
  orderRef: string;
  stage: CheckoutStage;
  limits: Limits | null;
  reservation: string | null;
  url: string | null;
  orderId: string | null;
  orderStatus: string | null;
  transferId: string | null;
  failureReason: string | null;
  redirectsReceived: number;
  outcome: CheckoutOutcome | null;
}

export interface CheckoutResult {
  outcome: CheckoutOutcome;
  orderRef: string;
  reservation: string | null;
  orderId: string | null;
  transferId: string | null;
  /** The provider's reason (FAILED), the limit that the amount exceeds (OVER_LIMIT), or why approval never came. */
  failureReason: string | null;
}

/** The type of the update failure when a checkout ends without a hosted page (e.g. OVER_LIMIT). */
export const CHECKOUT_ENDED = 'CheckoutEnded';

export const hostedPageUpdate = defineUpdate<HostedPage, []>('hostedPage');
export const purchaseRedirectUpdate = defineUpdate<CheckoutState, [PurchaseRedirect]>('purchaseRedirect');
export const checkoutStateQuery = defineQuery<CheckoutState>('state');

/** The workflow's signature, for clients that start it by name with checked arguments. */
export type CheckoutWorkflow = (input: CheckoutInput) => Promise<CheckoutResult>;
