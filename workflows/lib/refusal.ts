import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';

// What a failed activity means to a process. The activities decide what is permanent
// (activities/provider-failure.ts): the provider's refusals and requests that cannot be sent end
// an activity at once as non-retryable failures; anything else is retried until the activity's
// retry policy gives up.

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

/** A call that ended without a result: refused, or not delivered (its retries gave up). */
export type SendFailure = { refused: Refusal } | { notDelivered: string };

type ProviderDetails = { status?: number; errorCode?: string; problematicField?: string };

/** The refusal an activity's failure carries; null for any other failure (retries given up, a timeout). */
export function providerRefusal(err: unknown): Refusal | null {
  if (!(err instanceof ActivityFailure)) return null;
  const cause = err.cause;
  if (!(cause instanceof ApplicationFailure) || !cause.nonRetryable) return null;
  const details = cause.details?.[0] as ProviderDetails | undefined;
  return {
    type: cause.type ?? 'Error',
    message: cause.message,
    status: details?.status ?? null,
    errorCode: details?.errorCode || null,
    problematicField: details?.problematicField || null,
  };
}

/** Why a call failed; null when the error is no activity's (a bug in the workflow: let it fail the task). */
export function sendFailure(err: unknown): SendFailure | null {
  if (!(err instanceof ActivityFailure)) return null;
  const refusal = providerRefusal(err);
  if (refusal) return { refused: refusal };
  const cause = err.cause;
  const last = cause instanceof ApplicationFailure ? (cause.type ?? 'Error') : (cause?.name ?? 'ActivityFailure');
  return {
    notDelivered: `the provider or the claim store did not answer before the retries gave up (last failure: ${last})`,
  };
}

/** A refusal as shown to a person and kept in history: type and code, never the message (it may quote the input). */
export function refusalLabel(refusal: Refusal): string {
  return `${refusal.type}${refusal.errorCode ? ` (${refusal.errorCode})` : ''}`;
}
