// Named errors of the client for backend services, each saying what to do next.

export class ProcessNotFoundError extends Error {
  override name = 'ProcessNotFoundError';
  constructor(readonly workflowId: string) {
    super(`no process ${workflowId} exists; start it first (check the business key)`);
  }
}

export class InputRejectedError extends Error {
  override name = 'InputRejectedError';
  constructor(
    readonly field: string,
    detail: string,
  ) {
    super(`${field}: ${detail}`);
  }
}

/**
 * The input was taken but could not be delivered: the provider or the claim store did not answer
 * before the retries gave up. Nothing changed and no attempt was used up: hand it in again later.
 */
export class NotDeliveredError extends Error {
  override name = 'NotDeliveredError';
  constructor(
    readonly field: string,
    detail: string,
  ) {
    super(`${field}: ${detail}`);
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
