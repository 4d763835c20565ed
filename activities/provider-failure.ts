import { ApplicationFailure } from '@temporalio/common';
import { isLocalRequestError, ProviderError } from '../src/provider/errors.js';

// Which activity failures are worth retrying. Only those known to be permanent end the activity at
// once: the provider's refusals (a ProviderError that is not retryable), a request that could not
// be sent at all, and any error that says `retryable: false` of itself (a 2xx that breaks the
// contract, a claim gone or not what its reference says). Anything else is left to the retry
// policy: giving up on a passing fault would fail what a person handed in for nothing. Failures
// carry what a person needs to act, never the provider's message or a request's values (they may
// be personal data, and failures are kept in history).
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
