import { isLosslessNumber, LosslessNumber, parse, stringify } from 'lossless-json';
import { decimal, isDecimal, numberKeepsDigits } from './decimal.js';

// JSON at the edges (provider answers, callbacks, the sandbox's requests and answers) without
// losing an amount's digits. JSON.parse turns 1.000000000000000001 into 1; here a number that a
// double cannot hold exactly stays its text (a LosslessNumber), which the amount schema
// (src/provider/schemas/common.ts) reads as an exact decimal, and any other number field as the
// nearest number (jsonNumber there).

/** Parses JSON; a number whose digits a double would lose is kept as its text. Throws SyntaxError. */
export function parseJson(text: string): unknown {
  return parse(text, null, (digits) => (numberKeepsDigits(digits) ? Number(digits) : new LosslessNumber(digits)));
}

/** The text of a number read by `parseJson`, or the value itself. */
export function numberText(value: unknown): unknown {
  return isLosslessNumber(value) ? value.value : value;
}

/**
 * Fields that hold an amount, and fields that map currency codes to amounts: the contract says
 * amounts are JSON numbers, so their decimal strings are written as numbers with the same digits.
 */
const AMOUNT_FIELDS = new Set(['amount', 'sourceAmount', 'destAmount', 'totalFees', 'fees']);
const AMOUNT_MAPS = new Set(['balances', 'totalBalances', 'availableBalances', 'fees']);
const LIMIT_FIELD = /^(daily|weekly|yearly)(TotalSpent|Total|Remaining)$/;

const asNumber = (value: unknown) =>
  typeof value === 'string' && isDecimal(value) ? new LosslessNumber(decimal(value)) : value;

/** JSON text in which amounts held as decimal strings are written as JSON numbers, digit for digit. */
export function stringifyJson(value: unknown): string {
  return (
    stringify(value, function (this: unknown, key: string, field: unknown) {
      if (AMOUNT_MAPS.has(key) && field && typeof field === 'object' && !Array.isArray(field))
        return Object.fromEntries(Object.entries(field).map(([currency, amount]) => [currency, asNumber(amount)]));
      if (AMOUNT_FIELDS.has(key) || LIMIT_FIELD.test(key)) return asNumber(field);
      return field;
    }) ?? 'null'
  );
}
