import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { z } from 'zod';
import type {
  checkoutEndedDetails,
  checkoutInput,
  checkoutOutcome,
  checkoutResult,
  checkoutStage,
  checkoutState,
  hostedPage,
  purchaseRedirect,
} from './messages.schema.js';
export * from './contract.js';
import type { COLLECTED_BY_HOSTED_PAGE } from './contract.js';

// Reservation checkout (docs/provider-contract.md §2.6, §4.3, §OP-8): messages of the workflow and its client.

export type CheckoutInput = Omit<z.input<typeof checkoutInput>, (typeof COLLECTED_BY_HOSTED_PAGE)[number]>;
export type PurchaseRedirect = z.infer<typeof purchaseRedirect>;

/** The hosted purchase page; its query carries accountId and reservation. */
export type HostedPage = z.output<typeof hostedPage>;
export type CheckoutStage = z.infer<typeof checkoutStage>;
export type CheckoutOutcome = z.infer<typeof checkoutOutcome>;
export type CheckoutState = z.output<typeof checkoutState>;
export type CheckoutResult = z.output<typeof checkoutResult>;
export type CheckoutEndedDetails = z.output<typeof checkoutEndedDetails>;

/** The type of the update failure when a checkout ends without a hosted page (e.g. OVER_LIMIT). */
export const CHECKOUT_ENDED = 'CheckoutEnded';

export const hostedPageUpdate = defineUpdate<HostedPage, []>('hostedPage');
export const purchaseRedirectUpdate = defineUpdate<CheckoutState, [PurchaseRedirect]>('purchaseRedirect');
export const checkoutStateQuery = defineQuery<CheckoutState>('state');

/** The workflow's signature, for clients that start it by name with checked arguments. */
export type CheckoutWorkflow = (input: CheckoutInput) => Promise<CheckoutResult>;
