import type { ClaimFailureReason } from '../../src/claims/failures.js';

// Named errors of the client for backend services, each saying what to do next and whose failure it is.

export class ProcessNotFoundError extends Error {
  override name = 'ProcessNotFoundError';
  constructor(readonly workflowId: string) {
    super(`no process ${workflowId} exists; start it first (check the business key)`);
  }
}

/** A failure of the input in one field, said as `field: detail`. */
export abstract class FieldError extends Error {
  constructor(
    readonly field: string,
    detail: string,
  ) {
    super(`${field}: ${detail}`);
  }
}

export class InputRejectedError extends FieldError {
  override name = 'InputRejectedError';
}

/**
 * The input was taken but could not be delivered: the provider or the claim store did not answer
 * before the retries gave up. Nothing changed and no attempt was used up: hand it in again later.
 */
export class NotDeliveredError extends FieldError {
  override name = 'NotDeliveredError';
}

/** The provider refused the input (its type, code and status): fix it and hand it in again; no attempt used. */
export class ProviderRefusedError extends FieldError {
  override name = 'ProviderRefusedError';
  constructor(
    field: string,
    detail: string,
    readonly refusal: { type: string; errorCode: string | null; status: number | null },
  ) {
    super(field, detail);
  }
}

/**
 * Our own claim store could not give back what was handed in: its bytes are not those referenced
 * (`integrity`), it is not in the store the workers read (`gone`), or it was sealed under a claim
 * key the workers lack (`key-missing`). Nothing reached the provider and no attempt was used up;
 * the end user is not at fault: an operator fixes the store or its keys, then the input is handed in again.
 */
export class ClaimStoreError extends FieldError {
  override name = 'ClaimStoreError';
  constructor(
    field: string,
    detail: string,
    readonly reason: ClaimFailureReason,
  ) {
    super(field, detail);
  }
}

export class AlreadyFinishedError extends Error {
  override name = 'AlreadyFinishedError';
  constructor(readonly workflowId: string) {
    super(`process ${workflowId} has already finished; it takes no more input`);
  }
}

/** Turns a zod failure into an InputRejectedError that names the first bad field. */
export function rejectInput(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): InputRejectedError {
  const first = issues[0];
  return new InputRejectedError(first?.path.map(String).join('.') || 'input', first?.message ?? 'invalid');
}
