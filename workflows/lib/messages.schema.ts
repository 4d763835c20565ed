import { z } from 'zod';
import { CLAIM_FAILURE_HINTS, type ClaimFailureReason } from '../../src/claims/failures.js';
import { limits } from '../../src/provider/schemas/limits.js';
import { claimRef as checkClaimRef, timingFields } from './shared-checks.js';
import { zodFrom } from './zod-from-check.schema.js';

// The zod schemas of what every process shares, for the clients and the ingress. Workflow code
// never imports this module at run time (zod would be built again for every cached workflow). What
// a workflow checks is defined once, as its check (./shared-checks.ts); its zod schema is built from it.

export const claimRef = zodFrom(checkClaimRef);

export const timing = zodFrom(timingFields);

/**
 * The canonical decimal string as a pattern, for the JSON Schemas (schemas/messages): what
 * `decimal` (src/decimal.ts) writes. Without lookarounds, so that validators in Go (RE2) and Python read it too.
 */
export const CANONICAL_DECIMAL = /^(?:0|-?(?:[1-9][0-9]*(?:\.[0-9]*[1-9])?|0\.[0-9]*[1-9]))$/;
/** A positive amount as a caller sends it as a string (trailing zeros allowed): "49.99", "0.001". */
export const POSITIVE_DECIMAL = /^(?:[1-9][0-9]*(?:\.[0-9]+)?|0\.[0-9]*[1-9][0-9]*)$/;

/** An amount as the processes answer it: a canonical decimal string (src/decimal.ts), never a float. */
export const decimalAmount = z.string().regex(CANONICAL_DECIMAL, 'must be a canonical decimal string such as "12.34"');

const limitKeys = limits.keyof().options;
/** The provider's limits calculation as a state or result shows it (workflows/lib/amounts-view.ts). */
export const limitsAnswer = z.object(
  Object.fromEntries(limitKeys.map((key) => [key, decimalAmount])) as Record<
    (typeof limitKeys)[number],
    typeof decimalAmount
  >,
);

// The details of the failures a caller handles, which lib/process-client.ts turns into named errors.

/** InputRejected and NotDelivered: the field (or `input`) at fault. */
export const fieldFailureDetails = z.object({ field: z.string() });
/** ProviderRefused: the provider's error type, code and HTTP status, never its message. */
export const providerRefusedDetails = fieldFailureDetails.extend({
  type: z.string(),
  errorCode: z.string().nullable(),
  status: z.number().int().nullable(),
});
const claimFailureReasons = Object.keys(CLAIM_FAILURE_HINTS) as [ClaimFailureReason, ...ClaimFailureReason[]];
/** ClaimStoreFailed: why our claim store could not give the input back, and the activity failure's type. */
export const claimStoreFailedDetails = fieldFailureDetails.extend({
  reason: z.enum(claimFailureReasons),
  type: z.string(),
});
