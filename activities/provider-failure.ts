import { ApplicationFailure } from '@temporalio/common';
import { isLocalRequestError, ProviderError } from '../src/provider/errors.js';

// Activities are at-least-once and Temporal retries them; this decides which failures are worth
// retrying. Only failures known to be permanent end the activity at once: the provider's refusals
// (validation, auth, not-found: ProviderError that is not retryable), a request that could not be
// sent at all (a header undici refuses, input our own client rejects), and any error that says
// `retryable: false` of itself (a 2xx that breaks the contract, a claim that is gone or is not
// what its reference says). Anything else (the claim store's server or disk failing, an error
// nobody foresaw) is left to the activity's retry policy: giving up on a passing fault at once
// would fail what a person handed in for nothing (the processes tell the end user's update that
// such a submission was not delivered only once the retries gave up). Failures carry what a person needs to act, never the provider's message or a request's
// values (they may be personal data, and failures are kept in history).
export function toActivityFailure(err: unknown): unknown {
  if (err instanceof ApplicationFailure) return err;
  if (isLocalRequestError(err)) {
    const error = err as Error;
    return ApplicationFailure.create({
      type: 'ProviderInputError',
      message: error.message,
      nonRetryable: true,
      cause: error,
    });
  }
  if ((err as { retryable?: unknown } | null)?.retryable !== false) return err;
  if (err instanceof ProviderError) {
    return ApplicationFailure.create({
      type: err.body.type,
      message: err.message,
      nonRetryable: true,
      details: [
        {
          call: err.call,
          status: err.status,
          type: err.body.type,
          errorCode: err.body.errorCode ?? '',
          subType: err.body.subType ?? '',
          exceptionId: err.body.exceptionId,
          problematicField: err.body.problematicField ?? '',
        },
      ],
      cause: err,
    });
  }
  const error = err as Error;
  return ApplicationFailure.create({
    type: error.name ?? 'Error',
    message: error.message ?? String(err),
    nonRetryable: true,
    cause: error instanceof Error ? error : undefined,
  });
}

/** Wraps every function of an activities object with the failure mapping above. */
export function withProviderFailures<T extends Record<string, (...args: never[]) => Promise<unknown>>>(
  activities: T,
): T {
  return Object.fromEntries(
    Object.entries(activities).map(([name, fn]) => [
      name,
      async (...args: never[]) => {
        try {
          return await fn(...args);
        } catch (err) {
          throw toActivityFailure(err);
        }
      },
    ]),
  ) as T;
}
