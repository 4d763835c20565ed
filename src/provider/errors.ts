import { errorBody, type ErrorBody } from './schemas/error.js';

// What went wrong talking to the provider: which call, the provider's type, code and exception id,
// and whether repeating may succeed. Messages never quote the provider's message, a body or a value
// (they may hold an SSN, and reach logs and history); the provider's body stays on `body`.

export class ProviderError extends Error {
  override name = 'ProviderError';
  constructor(
    /** e.g. "POST /v2/wallets (create wallet)" */
    readonly call: string,
    readonly status: number,
    readonly body: ErrorBody,
    /** False for a 5xx saying `transient: false` to a call that creates: a blind repeat might create twice. */
    readonly repeatable = true,
  ) {
    const code = body.errorCode ? ` (${body.errorCode})` : '';
    const subType = body.subType ? ` ${body.subType}` : '';
    const field = body.problematicField ? ` field ${body.problematicField}` : '';
    super(
      `${call} failed with ${status} ${body.type}${code}:${subType}${field} [exceptionId ${body.exceptionId}]${hint(status, body, repeatable)}`,
    );
  }

  /** Transient errors, rate limits and server errors may succeed if sent again (unless not `repeatable`). */
  get retryable(): boolean {
    if (!this.repeatable) return false;
    return this.body.transient || this.status === 429 || this.status >= 500;
  }

  /** `creates` decides the transient:false rule: a call that creates may not be repeated blindly; reads repeat safely. */
  static fromResponse(call: string, status: number, text: string, opts: { creates: boolean }): ProviderError {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const parsed = errorBody.safeParse(json);
    if (parsed.success) {
      const saysNotTransient = (json as { transient?: unknown }).transient === false;
      return new ProviderError(call, status, parsed.data, !(status >= 500 && saysNotTransient && opts.creates));
    }
    // Not the documented body (a proxy's HTML page, say): keep what we have, classified by status.
    return new ProviderError(call, status, {
      language: 'en',
      exceptionId: 'none',
      type: status === 429 ? 'RateLimitException' : status >= 500 ? 'UnknownException' : 'UnexpectedResponse',
      message: `the provider answered ${status} without the documented error body (${text.length} characters, not quoted)`,
      transient: status === 429 || status >= 500,
    });
  }
}

function hint(status: number, body: ErrorBody, repeatable: boolean): string {
  if (!repeatable)
    return '. The provider says this failure is not transient and the call creates something: check whether it was created before trying again.';
  if (status === 401) return '. Check PROVIDER_API_KEY / PROVIDER_SECRET_KEY and that the machine clock is correct.';
  if (status === 404) return '. Check the id; it may belong to another account.';
  if (status === 429) return '. Rate limited: retry with backoff.';
  if (body.transient || status >= 500) return '. Transient: the same request may be retried.';
  return '';
}

/** Codes of undici's and Node's refusals of an unsendable request (a header with a newline, a bad URL). */
const LOCAL_REQUEST_ERRORS = new Set([
  'UND_ERR_INVALID_ARG',
  'UND_ERR_NOT_SUPPORTED',
  'UND_ERR_INVALID_RETURN_VALUE',
  'UND_ERR_REQ_CONTENT_LENGTH_MISMATCH',
  'ERR_INVALID_CHAR',
  'ERR_INVALID_HTTP_TOKEN',
  'ERR_HTTP_INVALID_HEADER_VALUE',
  'ERR_INVALID_URL',
  'ERR_INVALID_ARG_TYPE',
  'ERR_INVALID_ARG_VALUE',
]);

/** True for an error (or one in its cause chain) raised locally, before a request could be sent. */
export function isLocalRequestError(err: unknown): boolean {
  let link = err;
  for (let depth = 0; link && typeof link === 'object' && depth < 8; depth++) {
    if (link instanceof ProviderInputError) return true;
    const code = (link as { code?: unknown }).code;
    if (typeof code === 'string' && LOCAL_REQUEST_ERRORS.has(code)) return true;
    link = (link as { cause?: unknown }).cause;
  }
  return false;
}

/** No HTTP answer: refused, timed out, reset (retryable); or the request is malformed (not retryable). */
export class ProviderUnavailableError extends Error {
  override name = 'ProviderUnavailableError';
  readonly retryable: boolean;
  constructor(
    readonly call: string,
    cause: unknown,
  ) {
    const local = isLocalRequestError(cause);
    // undici's and Node's messages name the header or option, never its value.
    const why = (cause as Error)?.message ?? String(cause);
    super(
      local
        ? `${call} could not be sent: ${why}. The request is malformed on this side; it is not retried.`
        : `${call} got no answer from the provider: ${why}. It will be retried; check PROVIDER_BASE_URL if it persists.`,
      { cause },
    );
    this.retryable = !local;
  }
}

/** The provider answered 2xx with a body that does not match the contract. Repeating will not help. */
export class ProviderContractError extends Error {
  override name = 'ProviderContractError';
  readonly retryable = false;
  constructor(
    readonly call: string,
    detail: string,
  ) {
    super(`${call} answered with a body that does not match the interface: ${detail}`);
  }
}

/** Bad input caught before any request was sent. */
export class ProviderInputError extends Error {
  override name = 'ProviderInputError';
  readonly retryable = false;
  constructor(
    readonly call: string,
    readonly field: string,
    detail: string,
  ) {
    super(`${call}: ${field}: ${detail}`);
  }
}
