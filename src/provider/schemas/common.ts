import { z } from 'zod';
import { AMOUNT_DIGITS, amountBound, decimal } from '../../decimal.js';

import {
  COUNTRY_CODE,
  COUNTRY_CODE_MESSAGE,
  CURRENCY_CODE,
  CURRENCY_CODE_MESSAGE,
  idMessage,
  idPattern,
  idRegex,
  PAYMENT_METHOD_PREFIXES,
  type Prefixes,
} from '../ids.js';

// Ids, codes and amounts as zod schemas, for the provider client, the sandbox, the ingress and the
// clients. Their shapes are written once in src/provider/ids.ts, which workflow code checks against.
export { idPattern };

/** A string that is an id with this prefix (or one of these); the message names `what` and the shapes it takes. */
export function prefixedId(prefix: string | Prefixes, what: string) {
  return z.string().regex(idRegex(prefix), { message: idMessage(prefix, what) });
}

export const walletId = prefixedId('WA', 'a wallet id');
export const transferId = prefixedId('TF', 'a transfer id');
export const transactionId = prefixedId('TR', 'a transaction id');
export const accountId = prefixedId('AC', 'an account id');
export const userId = prefixedId('US', 'a user id');
/** docs/provider-contract.md §1 names both prefixes for payment methods: PA, and PM as used in follow-up flows. */
export const paymentMethodId = prefixedId(PAYMENT_METHOD_PREFIXES, 'a payment method id');
/** Not in the contract: the real service's order ids (WO_...), as its purchase redirect carries them. */
export const orderId = prefixedId('WO', 'an order id');
/** A user as the owner of a payment method or reservation: `user:US_<id>` (docs/provider-contract.md §5.4: a bare id would be an account). */
export const userOwner = z.string().regex(new RegExp(`^user:${idPattern('US')}$`), 'owner must be user:US_<id>');

/** The text of a number src/json.ts kept as text (a LosslessNumber), or the value itself. */
const numberText = (value: unknown): unknown =>
  value !== null && typeof value === 'object' && (value as { isLosslessNumber?: unknown }).isLosslessNumber === true
    ? (value as { value: unknown }).value
    : value;

/**
 * A number field that is not an amount, as `schema` bounds it. One src/json.ts kept as text (a
 * nanosecond createdAt) is read as the nearest number: one field must not fail a whole answer.
 */
export function jsonNumber<T extends z.ZodType<number>>(schema: T) {
  return z.preprocess((value) => {
    const text = numberText(value);
    return typeof text === 'string' && text !== value ? Number(text) : value;
  }, schema);
}

/**
 * A whole number from the provider. Not zod's int(), which refuses past 2^53: a nanosecond time
 * is a whole number still, only not an exact one.
 */
export const wholeNumber = () => z.number().refine(Number.isInteger, { message: 'must be a whole number' });
export const epochMs = jsonNumber(wholeNumber().nonnegative());
export const currencyCode = z.string().regex(CURRENCY_CODE, { message: CURRENCY_CODE_MESSAGE });
export const countryCode = z.string().regex(COUNTRY_CODE, COUNTRY_CODE_MESSAGE);

/**
 * An amount, exactly (a JSON number with its digits kept, or a decimal string), as a canonical decimal
 * string. One past AMOUNT_DIGITS is refused here, naming the field, so it never reaches a ledger.
 */
export const amount = z
  .custom<string | number | { isLosslessNumber: true; value: string }>(
    (value) => amountBound(numberText(value)) !== 'none',
    {
      message: 'must be a decimal amount: a JSON number or a decimal string such as "12.34"',
    },
  )
  .transform((value, ctx) => {
    const text = numberText(value) as string | number;
    if (amountBound(text) === 'within') return decimal(text);
    ctx.addIssue({
      code: 'custom',
      // The value is not quoted: these messages reach logs and histories (src/provider/errors.ts).
      message: `is past the bound of an amount: at most ${AMOUNT_DIGITS.whole} digits before the point and ${AMOUNT_DIGITS.fraction} after`,
    });
    return z.NEVER;
  });
/** A positive amount (a purchase, a deposit an operator makes). */
export const positiveAmount = amount.refine((value) => !value.startsWith('-') && value !== '0', {
  message: 'must be a positive amount',
});
/** A map of currency code to amount, as in balances and fees. */
export const amounts = z.record(z.string(), amount);
/** Fields that the contract shows only as null: accepted as null or any value (docs/provider-contract.md §2.2). */
export const unknownNullable = z.unknown().optional();
