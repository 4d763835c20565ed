import { errorBody, type ErrorBody } from './schemas/error.js';

// What went wrong talking to the provider, with what a person needs to act: which call, the
// provider's type, code and exception id, and whether repeating the same request may succeed.

export class ProviderError extends Error {
  override name = 'ProviderError';
  constructor(
    /** e.g. "POST /v2/wallets (create wallet)" */
    readonly call: string,
    readonly status: number,
    readonly body: ErrorBody,
    /**
     * False when the provider answered 5xx saying `transient: false` to a call that creates (POST):
     * the contract documents no deduplication, so a blind repeat might create twice.
     */
    readonly repeatable = true,
  ) {
    const code = body.errorCode ? ` (${body.errorCode})` : '';
    const field = body.problematicField ? ` field ${body.problematicField}:` : '';
    super(`${call} failed with ${status} ${body.type}${code}:${field} ${body.message} [exceptionId ${body.exceptionId}]${hint(status, body, repeatable)}`);
  }

  /**
   * Transient errors, rate limits and server errors may succeed when the same request is sent
   * again; except a 5xx that the provider itself calls not transient on a creating call.
   */
  get retryable(): boolean {
    if (!this.repeatable) return false;
    return this.body.transient || this.status === 429 || this.status >= 500;
  }

  /** `method` decides the transient:false rule: only POST creates; GET, PUT and DELETE repeat safely. */
  static fromResponse(call: string, status: number, text: string, method = 'GET'): ProviderError {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const parsed = errorBody.safeParse(json);
    if (parsed.success) {
      const saysNotTransient = (json as { transient?: unknown }).transient === false;
      return new ProviderError(call, status, parsed.data, !(status >= 500 && saysNotTransient && method === 'POST'));
    }
    // Not the documented body (a proxy's HTML page, say): keep what we have, classified by status.
    return new ProviderError(call, status, {
      language: 'en',
      exceptionId: 'none',
      type: status === 429 ? 'RateLimitException' : status >= 500 ? 'UnknownException' : 'UnexpectedResponse',
      message: `the provider answered ${status} without the documented error body: ${text.slice(0, 200)}`,
      transient: status === 429 || status >= 500,
    });
  }
}

function hint(status: number, body: ErrorBody, repeatable: boolean): string {
  if (!repeatable) return '. The provider says this failure is not transient and the call creates something: check whether it was created before trying again.';
  if (status === 401) return '. Check PROVIDER_API_KEY / PROVIDER_SECRET_KEY and that the machine clock is correct.';
  if (status === 404) return '. Check the id; it may belong to another account.';
  if (status === 429) return '. Rate limited: retry with backoff.';
  if (body.transient || status >= 500) return '. Transient: the same request may be retried.';
  return '';
}

/** The request never got an HTTP answer (connection refused, timeout, reset). Always retryable. */
export class ProviderUnavailableError extends Error {
  override name = 'ProviderUnavailableError';
  readonly retryable = true;
  constructor(readonly call: string, cause: unknown) {
    super(`${call} got no answer from the provider: ${(cause as Error)?.message ?? String(cause)}. It will be retried; check PROVIDER_BASE_URL if it persists.`, { cause });
  }
}

/** The provider answered 2xx with a body that does not match the contract. Repeating will not help. */
export class ProviderContractError extends Error {
  override name = 'ProviderContractError';
  readonly retryable = false;
  constructor(readonly call: string, detail: string) {
    super(`${call} answered with a body that does not match the interface: ${detail}`);
  }
}

/** Bad input caught before any request was sent. */
export class ProviderInputError extends Error {
  override name = 'ProviderInputError';
  readonly retryable = false;
  constructor(readonly call: string, readonly field: string, detail: string) {
    super(`${call}: ${field}: ${detail}`);
  }
}
