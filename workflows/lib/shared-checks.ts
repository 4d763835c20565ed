import {
  CLAIM_REF,
  CLAIM_REF_MESSAGE,
  EMPTY_CONTENT_MESSAGE,
  SHA256_HEX,
  SHA256_HEX_MESSAGE,
} from '../../src/claims/ref-shape.js';
import {
  COUNTRY_CODE,
  COUNTRY_CODE_MESSAGE,
  CURRENCY_CODE,
  CURRENCY_CODE_MESSAGE,
  idMessage,
  idRegex,
  type Prefixes,
} from '../../src/provider/ids.js';
import { MIN_TIMING_MS, TIMING_DEFAULTS } from './contract.js';
import { boolean, int, object, optional, string, withDefault } from './input-check.js';

// Checks of the pieces every process's messages are made of (zod: ./messages.schema.ts, from these).

export const id = (prefix: string | Prefixes, what: string) =>
  string({ pattern: idRegex(prefix), message: idMessage(prefix, what) });
export const currencyCode = string({ pattern: CURRENCY_CODE, message: CURRENCY_CODE_MESSAGE });
export const countryCode = string({ pattern: COUNTRY_CODE, message: COUNTRY_CODE_MESSAGE });
/** A business key of the backend's (userRef, orderRef, clientRef): never personal data. */
export const businessKey = (message: string) => string({ pattern: /^[A-Za-z0-9_.-]{1,100}$/, message });

const duration = (fallback: number) => withDefault(int({ min: MIN_TIMING_MS }), fallback);
/** Durations of a process, in milliseconds: configuration, so that tests can make them short. */
export const timingFields = object({
  pollInitialMs: duration(TIMING_DEFAULTS.pollInitialMs),
  pollMaxMs: duration(TIMING_DEFAULTS.pollMaxMs),
  reminderAfterMs: duration(TIMING_DEFAULTS.reminderAfterMs),
  deadlineMs: duration(TIMING_DEFAULTS.deadlineMs),
  stallAfterMs: duration(TIMING_DEFAULTS.stallAfterMs),
});
/** A process's durations; all defaults when left out. */
export const timing = withDefault(timingFields, TIMING_DEFAULTS);

/** The fields of a claim reference (src/claims/ref.ts), for the checks that narrow some of them. */
export const claimRefFields = {
  ref: string({ pattern: CLAIM_REF, message: CLAIM_REF_MESSAGE }),
  size: int({ min: 1, tooSmall: EMPTY_CONTENT_MESSAGE }),
  contentType: string({ minLength: 1 }),
  /** SHA-256 of the bytes; for personal values (keyed) an HMAC-SHA256 under the store's own key. */
  sha256: string({ pattern: SHA256_HEX, message: SHA256_HEX_MESSAGE }),
  keyed: optional(boolean()),
};
/** Documents and personal values travel by reference (src/claims/ref.ts). */
export const claimRef = object(claimRefFields);
