import { ApplicationFailure } from '@temporalio/common';
import { isLocalRequestError, ProviderError } from '../src/provider/errors.js';

// Activities are at-least-once and Temporal retries them; this decides which provider failures
// are worth retrying. Transient errors, 429, 5xx and network failures are; validation, auth and
// not-found are not, and neither is a request that could not be sent at all (a header undici
// refuses, input our own client rejects): such a failure ends the activity at once, since every
// retry would fail the same way. Failures carry what a person needs to act, never the provider's
// message or a request's values (they may be personal data, and failures are kept in history).
export function toActivityFailure(err: unknown): unknown {
  if (err instanceof ApplicationFailure) return err;
  if (isLocalRequestError(err)) {
    const e = err as Error;
    return ApplicationFailure.create({ type: 'ProviderInputError', message: e.message, nonRetryable: true, cause: e });
  }
  const retryable = (err as { retryable?: boolean }).retryable === true;
  if (retryable) return err;
  if (err instanceof ProviderError) {
    return ApplicationFailure.create({
      type: err.body.type,
      message: err.message,
      nonRetryable: true,
      details: [{ call: err.call, status: err.status, type: err.body.type, errorCode: err.body.errorCode ?? '', subType: err.body.subType ?? '', exceptionId: err.body.exceptionId, problematicField: err.body.problematicField ?? '' }],
      cause: err,
    });
  }
  const e = err as Error;
  return ApplicationFailure.create({ type: e?.name ?? 'Error', message: e?.message ?? String(err), nonRetryable: true, cause: e instanceof Error ? e : undefined });
}

/** Wraps every function of an activities object with the failure mapping above. */
export function withProviderFailures<T extends Record<string, (...args: never[]) => Promise<unknown>>>(activities: T): T {
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
