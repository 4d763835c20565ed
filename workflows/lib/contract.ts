// What every process's contract shares, for its workflow, checks, zod schema and client: no zod, nothing that runs.

/** Durations of a process, in milliseconds (./messages.schema.ts): what a start leaves out. */
export { PROCESS_TIMING_DEFAULTS as TIMING_DEFAULTS } from '../../src/process-defaults.js';

/** The shortest duration: tests make processes short, never instant. */
export const MIN_TIMING_MS = 10;

/** The type of the ApplicationFailure that a validator throws for bad input. */
export const INPUT_REJECTED = 'InputRejected';

/**
 * The type of an update's failure when its input was taken but could not be delivered: the
 * provider or the claim store did not answer before the retries gave up. Nothing changed; the same
 * input may be handed in again later. Its details name the field.
 */
export const NOT_DELIVERED = 'NotDelivered';

/**
 * The type of an update's failure when the provider refused its input: the details carry the
 * field, the provider's error type, code and HTTP status (never its message: it may quote the input).
 */
export const PROVIDER_REFUSED = 'ProviderRefused';

/**
 * The type of an update's failure when our own claim store could not give back what was handed in
 * (details: the field, and the reason: integrity, gone or key-missing). Nothing was sent to the
 * provider and no attempt was used up; an operator fixes the store or its keys.
 */
export const CLAIM_STORE_FAILED = 'ClaimStoreFailed';
