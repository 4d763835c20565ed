import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';
import { CLAIM_FAILURE_HINTS, type ClaimFailureReason, claimFailureReason } from '../../src/claims/failures.js';
import { CLAIM_STORE_FAILED, INPUT_REJECTED, NOT_DELIVERED, PROVIDER_REFUSED } from './messages.js';
import type { ClaimStoreFailedDetails, FieldFailureDetails, ProviderRefusedDetails } from './messages.js';

// What a failed activity means to a process, and whose failure it is. The activities decide what
// is permanent (activities/provider-failure.ts); our own claim store's failures are told apart by
// their type (src/claims/failures.ts), so that none is reported as the provider's.

/** The provider (or our own client, before sending) refused the call: no retry changes it. */
export type Refusal = {
  /** The provider's error type (ValidationException, ...) or ours (ProviderInputError, ...). */
  type: string;
  message: string;
  /** The provider's HTTP status, error code and the field at fault, where it gave them. */
  status: number | null;
  errorCode: string | null;
  problematicField: string | null;
};

/** Our own claim store could not give back what was handed in; `type` is the activity failure's. */
export type ClaimFailure = { reason: ClaimFailureReason; type: string };

/**
 * A call that ended without a result, by whose it is: the provider refused it; our claim store
 * could not give the claim back; our own client would not send it (ProviderInputError); or it was
 * not delivered (its retries gave up on something passing).
 */
export type SendFailure =
  { refused: Refusal } | { claim: ClaimFailure } | { rejected: string } | { notDelivered: string };

type ProviderDetails = { status?: number; errorCode?: string; problematicField?: string };

const failureType = (cause: Error | undefined) =>
  cause instanceof ApplicationFailure ? (cause.type ?? 'Error') : (cause?.name ?? 'ActivityFailure');

/** The refusal an activity's failure carries; null for any other failure (retries given up, our claims'). */
export function providerRefusal(err: unknown): Refusal | null {
  if (!(err instanceof ActivityFailure)) return null;
  const cause = err.cause;
  if (!(cause instanceof ApplicationFailure) || !cause.nonRetryable) return null;
  if (claimFailureReason(cause.type)) return null;
  const details = cause.details?.[0] as ProviderDetails | undefined;
  return {
    type: cause.type ?? 'Error',
    message: cause.message,
    status: details?.status ?? null,
    errorCode: details?.errorCode || null,
    problematicField: details?.problematicField || null,
  };
}

/** Why a call failed, and whose the failure is; null when the error is no activity's (a bug in the workflow: let it fail the task). */
export function sendFailure(err: unknown): SendFailure | null {
  if (!(err instanceof ActivityFailure)) return null;
  const type = failureType(err.cause);
  // A claim that is gone or changed ends at once; one sealed under a key the worker lacks is
  // retried, and is still the claim store's when the retries give up on it.
  const reason = claimFailureReason(type);
  if (reason) return { claim: { reason, type } };
  const refusal = providerRefusal(err);
  if (refusal?.type === 'ProviderInputError') return { rejected: refusal.type };
  if (refusal) return { refused: refusal };
  return {
    notDelivered: `the provider or the claim store did not answer before the retries gave up (last failure: ${type})`,
  };
}

/** A refusal as shown to a person and kept in history: type and code, never the message (it may quote the input). */
export function refusalLabel(refusal: Refusal): string {
  return `${refusal.type}${refusal.errorCode ? ` (${refusal.errorCode})` : ''}`;
}

/** A failure in a few words, for a process's state: whose, its type and code (never a message). */
export function failureLabel(failure: SendFailure): string {
  if ('refused' in failure) return refusalLabel(failure.refused);
  if ('claim' in failure) return `claim store: ${failure.claim.type}`;
  if ('rejected' in failure) return `not sent: ${failure.rejected}`;
  return failure.notDelivered;
}

/** What the update hears of a failure that is ours, not the provider's: what happened and who acts. */
export function ownFailureReason(failure: { claim: ClaimFailure } | { rejected: string }): string {
  if ('claim' in failure)
    return `our claim store could not give it back (${failure.claim.type}): ${CLAIM_FAILURE_HINTS[failure.claim.reason]}; nothing was sent or used up: hand it in again once that is fixed`;
  return `our own check of the request would not send it (${failure.rejected}): check the value, then hand it in again`;
}

/**
 * The failure of an update whose input was not sent, typed by whose it is (the client raises each
 * as its own error): the provider's refusal, our claim store, not delivered, or (none of those:
 * the input was moot, the process ended first, our own check refused it) the input rejected.
 */
export function notSentFailure(field: string, reason: string, failure: SendFailure | null): ApplicationFailure {
  let type = failure && 'notDelivered' in failure ? NOT_DELIVERED : INPUT_REJECTED;
  let details: FieldFailureDetails | ProviderRefusedDetails | ClaimStoreFailedDetails = { field };
  if (failure && 'refused' in failure) {
    const { type: refusalType, errorCode, status } = failure.refused;
    [type, details] = [PROVIDER_REFUSED, { field, type: refusalType, errorCode, status }];
  } else if (failure && 'claim' in failure) {
    [type, details] = [CLAIM_STORE_FAILED, { field, reason: failure.claim.reason, type: failure.claim.type }];
  }
  return ApplicationFailure.create({ type, message: `${field}: ${reason}`, details: [details], nonRetryable: true });
}
