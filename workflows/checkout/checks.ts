import {
  CHECKOUT_DEST,
  CHECKOUT_DEST_MESSAGE,
  COLLECTED_BY_HOSTED_PAGE,
  COLLECTED_BY_HOSTED_PAGE_MESSAGE,
  ORDER_REF_MESSAGE,
  REDIRECT_NAMES_NOTHING_MESSAGE,
  REQUIRE_HIGHER_LIMITS_MESSAGE,
} from './contract.js';
import {
  absent,
  boolean,
  type Check,
  object,
  optional,
  positiveAmount,
  string,
  url,
  withDefault,
} from '../lib/input-check.js';
import { businessKey, currencyCode, id, timing } from '../lib/shared-checks.js';

// What the checkout checks on its input and on a redirect: their one definition (zod: ./messages.schema.ts).

/** The backend's own reference for its order: a business key, never personal data. */
export const checkOrderRef = businessKey(ORDER_REF_MESSAGE);

/** The buyer's personal data of docs/provider-contract.md §2.6 is refused by name: the hosted page collects it, so it never enters history. */
const collectedByHostedPage = Object.fromEntries(
  COLLECTED_BY_HOSTED_PAGE.map((key) => [key, absent(COLLECTED_BY_HOSTED_PAGE_MESSAGE)]),
) as Record<(typeof COLLECTED_BY_HOSTED_PAGE)[number], Check<undefined, undefined>>;

export const checkCheckoutInput = object(
  {
    orderRef: checkOrderRef,
    /** Exact: a decimal string ("49.99") or a JSON number; a decimal string in the workflow. */
    sourceAmount: positiveAmount(),
    sourceCurrency: currencyCode,
    destCurrency: currencyCode,
    dest: string({ pattern: CHECKOUT_DEST, message: CHECKOUT_DEST_MESSAGE }),
    redirectUrl: optional(url()),
    failureRedirectUrl: optional(url()),
    /**
     * The provider's user (US_...) the purchase is for: its limits are checked, and once approved
     * for higher limits it owns the reservation (docs/provider-contract.md §8 rule 1).
     */
    userId: optional(id('US', 'a user id')),
    /**
     * Wait until the user is approved before reserving. The checkout polls the user's status itself
     * rather than waiting on the onboarding workflow: a workflow cannot read another one's result or
     * query it, and the provider is the authority on approval anyway.
     */
    requireHigherLimits: withDefault(boolean(), false),
    timing,
    ...collectedByHostedPage,
  },
  {
    strict: true,
    rules: [
      { when: 'requireHigherLimits', anyOf: ['userId'], field: 'userId', message: REQUIRE_HIGHER_LIMITS_MESSAGE },
    ],
  },
);

/** What a backend learnt from the redirect to its redirectUrl (docs/provider-contract.md §OP-8): a hint to look now. */
export const checkPurchaseRedirect = object(
  { transferId: optional(id('TF', 'a transfer id')), orderId: optional(id('WO', 'an order id')) },
  {
    strict: true,
    rules: [{ anyOf: ['transferId', 'orderId'], field: 'orderId', message: REDIRECT_NAMES_NOTHING_MESSAGE }],
  },
);
