import type { z } from 'zod';
import {
  CHECKOUT_DEST,
  CHECKOUT_DEST_MESSAGE,
  COLLECTED_BY_HOSTED_PAGE,
  COLLECTED_BY_HOSTED_PAGE_MESSAGE,
  ORDER_REF_MESSAGE,
  REDIRECT_NAMES_NOTHING_MESSAGE,
  REQUIRE_HIGHER_LIMITS_MESSAGE,
} from './messages.js';
import type { checkoutInput, purchaseRedirect } from './messages.schema.js';
import { absent, boolean, type Check, fail, object, optional, string, url, withDefault } from '../lib/input-check.js';
import { businessKey, currencyCode, id, positiveAmount, timing } from '../lib/shared-checks.js';

// What the checkout checks on its input and on a purchase redirect (workflows/checkout/messages.schema.ts in zod).

const collectedByHostedPage = Object.fromEntries(
  COLLECTED_BY_HOSTED_PAGE.map((key) => [key, absent(COLLECTED_BY_HOSTED_PAGE_MESSAGE)]),
) as Record<(typeof COLLECTED_BY_HOSTED_PAGE)[number], Check<undefined>>;

const checkoutFields = object(
  {
    orderRef: businessKey(ORDER_REF_MESSAGE),
    sourceAmount: positiveAmount,
    sourceCurrency: currencyCode,
    destCurrency: currencyCode,
    dest: string(CHECKOUT_DEST, CHECKOUT_DEST_MESSAGE),
    redirectUrl: optional(url()),
    failureRedirectUrl: optional(url()),
    userId: optional(id('US', 'a user id')),
    requireHigherLimits: withDefault(boolean(), () => false),
    timing,
    ...collectedByHostedPage,
  },
  { strict: true },
);

export const checkCheckoutInput: Check<z.output<typeof checkoutInput>> = (value, field) => {
  const input = checkoutFields(value, field);
  if (input.requireHigherLimits && !input.userId) fail('userId', REQUIRE_HIGHER_LIMITS_MESSAGE);
  return input;
};

const redirectFields = object(
  { transferId: optional(id('TF', 'a transfer id')), orderId: optional(id('WO', 'an order id')) },
  { strict: true },
);

export const checkPurchaseRedirect: Check<z.output<typeof purchaseRedirect>> = (value, field) => {
  const redirect = redirectFields(value, field);
  if (!redirect.transferId && !redirect.orderId) fail('orderId', REDIRECT_NAMES_NOTHING_MESSAGE);
  return redirect;
};
