import { isLosslessNumber, LosslessNumber, parse, stringify } from 'lossless-json';
import { decimal, isDecimal, numberKeepsDigits } from './decimal.js';

// JSON at the edges without losing an amount's digits: JSON.parse turns 1.000000000000000001 into 1;
// here a number a double cannot hold stays its text, which src/provider/schemas/common.ts reads as
// an exact amount, or as the nearest number for other fields.

/** Parses JSON; a number whose digits a double would lose is kept as its text. Throws SyntaxError. */
export function parseJson(text: string): unknown {
  return parse(text, null, (digits) => (numberKeepsDigits(digits) ? Number(digits) : new LosslessNumber(digits)));
}

/** The text of a number read by `parseJson`, or the value itself. */
export function numberText(value: unknown): unknown {
  return isLosslessNumber(value) ? value.value : value;
}

/** Fields that hold an amount or map currencies to amounts: written as JSON numbers with the same digits. */
const AMOUNT_FIELDS = new Set(['amount', 'sourceAmount', 'destAmount', 'totalFees', 'fees']);
const AMOUNT_MAPS = new Set(['balances', 'totalBalances', 'availableBalances', 'fees']);
const LIMIT_FIELD = /^(daily|weekly|yearly)(TotalSpent|Total|Remaining)$/;
/** Free-form fields of the contract (docs/provider-contract.md §2.1 to §2.7, §OP-3 to §OP-9), written as given. */
const FREE_FORM = new Set([
  'metadata',
  'tags',
  'fields',
  'verificationData',
  'profileFields',
  'message',
  'sourceFees',
  'destFees',
  'pendingSubStatus',
  'reversingSubStatus',
  'reversalReason',
  'blockchainTx',
  'problematicValue',
  'chargeFeeSchedule',
  'depositFeeSchedule',
  'minCharge',
  'maxCharge',
  'minDeposit',
  'maxDeposit',
  'documents',
]);

const asNumber = (value: unknown) =>
  typeof value === 'string' && isDecimal(value) ? new LosslessNumber(decimal(value)) : value;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null &&
  typeof value === 'object' &&
  [Object.prototype, null].includes(Object.getPrototypeOf(value) as object | null);

/** `value` with the amounts at their known places as numbers; free-form fields untouched. */
function amountsAsNumbers(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(amountsAsNumbers);
  // What a value says of itself in JSON (as JSON.stringify asks), read as any other value.
  if (!isRecord(value) && !isLosslessNumber(value) && typeof (value as { toJSON?: unknown })?.toJSON === 'function')
    return amountsAsNumbers((value as { toJSON: () => unknown }).toJSON());
  if (!isRecord(value)) return value;
  const field = (key: string, v: unknown): unknown => {
    if (FREE_FORM.has(key)) return v;
    if (AMOUNT_MAPS.has(key) && isRecord(v))
      return Object.fromEntries(Object.entries(v).map(([currency, amount]) => [currency, asNumber(amount)]));
    if (AMOUNT_FIELDS.has(key) || LIMIT_FIELD.test(key)) return asNumber(v);
    return amountsAsNumbers(v);
  };
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, field(key, v)]));
}

/** JSON text in which amounts held as decimal strings are written as JSON numbers, digit for digit. */
export function stringifyJson(value: unknown): string {
  return stringify(amountsAsNumbers(value)) ?? 'null';
}
