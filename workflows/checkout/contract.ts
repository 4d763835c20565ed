// This process's contract, shared by its workflow, checks, zod schema and client: no zod, nothing that runs.

import { idPattern } from '../../src/provider/ids.js';

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
