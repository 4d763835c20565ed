import type { RetryPolicy } from '@temporalio/workflow';

/**
 * Retries of a call that creates or submits something at the provider: bounded, so that a
 * provider in trouble (or a request it can never take) ends the step visibly after about 15
 * minutes instead of holding the process in silent retries for ever. Every attempt carries the
 * same idempotency key, so the retries create at most once; a process started again under the
 * same workflow id finds what an earlier attempt created through the same key (creations) or
 * submits anew (KYC values, ACH forms: their keys carry the run chain's id).
 * Reads are not bound by this: repeating one is harmless, and a wait on the provider is
 * bounded by the process's own stall limit.
 */
export const CREATION_RETRY: RetryPolicy = {
  initialInterval: '1s',
  backoffCoefficient: 2,
  maximumInterval: '1 minute',
  // 1 + 2 + ... + 32 s, then 14 waits of a minute: about 15 minutes between the first and last attempt.
  maximumAttempts: 20,
};
