import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { z } from 'zod';
import { idPattern } from '../../src/provider/ids.js';
import type {
  checkoutEndedDetails,
  checkoutInput,
  checkoutOutcome,
  checkoutResult,
  checkoutStage,
  checkoutState,
  hostedPage,
  purchaseRedirect,
} from '../../src/messages/checkout.schema.js';

// Reservation checkout (docs/provider-contract.md §2.6, §4.3, §OP-8): messages
// shared by the workflow and its client (their zod schemas, for the client, in ./checkout.schema.ts).

export const checkoutWorkflowId = (ref: string) => `checkout:${ref}`;

/** The buyer's personal data of docs/provider-contract.md §2.6, refused by name: the hosted page collects it, so it never enters history. */
export const COLLECTED_BY_HOSTED_PAGE = [
  'email',
  'phone',
  'firstName',
  'lastName',
  'street1',
  'city',
  'state',
  'postalCode',
] as const;
export const COLLECTED_BY_HOSTED_PAGE_MESSAGE = 'personal data is collected by the hosted page; leave it out';

/** Where a purchase goes: a wallet or an account, as an SRN. */
export const CHECKOUT_DEST = new RegExp(`^(?:wallet:${idPattern('WA')}|account:${idPattern('AC')})$`);
export const CHECKOUT_DEST_MESSAGE = 'dest must be an SRN such as wallet:WA_<id> or account:AC_<id>';
export const ORDER_REF_MESSAGE = 'orderRef must be 1 to 100 letters, digits, _ . or -';
export const REQUIRE_HIGHER_LIMITS_MESSAGE = 'requireHigherLimits needs the userId of the user to wait for';
export const REDIRECT_NAMES_NOTHING_MESSAGE = 'send the orderId or the transferId of the redirect';

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
