import type { z } from 'zod';
import {
  CLAIM_REF,
  CLAIM_REF_MESSAGE,
  EMPTY_CONTENT_MESSAGE,
  SHA256_HEX,
  SHA256_HEX_MESSAGE,
} from '../../src/claims/ref-shape.js';
import { decimal, isDecimal } from '../../src/decimal.js';
import {
  COUNTRY_CODE,
  COUNTRY_CODE_MESSAGE,
  CURRENCY_CODE,
  CURRENCY_CODE_MESSAGE,
  idMessage,
  idRegex,
  type Prefixes,
} from '../../src/provider/ids.js';
import { MIN_TIMING_MS, TIMING_DEFAULTS } from './messages.js';
import type { timing as timingSchema } from './messages.schema.js';
import {
  boolean,
  type Check,
  fail,
  int,
  nonEmptyString,
  object,
  optional,
  string,
  withDefault,
} from './input-check.js';

// Checks of the pieces every process's messages are made of: ids, codes, amounts, durations and
// claim references (workflows/lib/messages.schema.ts and src/provider/schemas/common.ts in zod).

export const id = (prefix: string | Prefixes, what: string) => string(idRegex(prefix), idMessage(prefix, what));
export const currencyCode = string(CURRENCY_CODE, CURRENCY_CODE_MESSAGE);
export const countryCode = string(COUNTRY_CODE, COUNTRY_CODE_MESSAGE);
/** A business key of the backend's (userRef, orderRef, clientRef): never personal data. */
export const businessKey = (message: string) => string(/^[A-Za-z0-9_.-]{1,100}$/, message);

/** The text of a number src/json.ts kept as text (a LosslessNumber), or the value itself. */
const numberText = (value: unknown): unknown =>
  value !== null && typeof value === 'object' && (value as { isLosslessNumber?: unknown }).isLosslessNumber === true
    ? (value as { value: unknown }).value
    : value;

/** A positive amount, exactly: a JSON number or a decimal string; yields the canonical decimal string. */
export const positiveAmount: Check<string> = (value, field) => {
  const text = numberText(value);
  if (!isDecimal(text)) fail(field, 'must be a decimal amount: a JSON number or a decimal string such as "12.34"');
  const exact = decimal(text as string | number);
  if (exact.startsWith('-') || exact === '0') fail(field, 'must be a positive amount');
  return exact;
};

const duration = (fallback: number) => withDefault(int({ min: MIN_TIMING_MS }), () => fallback);
const timingFields = object({
  pollInitialMs: duration(TIMING_DEFAULTS.pollInitialMs),
  pollMaxMs: duration(TIMING_DEFAULTS.pollMaxMs),
  reminderAfterMs: duration(TIMING_DEFAULTS.reminderAfterMs),
  deadlineMs: duration(TIMING_DEFAULTS.deadlineMs),
  stallAfterMs: duration(TIMING_DEFAULTS.stallAfterMs),
});
/** A process's durations; all defaults when left out. */
export const timing: Check<z.output<typeof timingSchema>> = withDefault(timingFields, () => ({ ...TIMING_DEFAULTS }));

/** The fields of a claim reference (src/claims/ref.ts), for the checks that narrow some of them. */
export const claimRefFields = {
  ref: string(CLAIM_REF, CLAIM_REF_MESSAGE),
  size: int({ min: 1, tooSmall: EMPTY_CONTENT_MESSAGE }),
  contentType: nonEmptyString(),
  sha256: string(SHA256_HEX, SHA256_HEX_MESSAGE),
  keyed: optional(boolean()),
};
export const claimRef = object(claimRefFields);
