// An HTTP answer read up to a limit, not whole: a provider, a proxy or a storage endpoint that
// answers without end (or far more than any answer of its interface) would otherwise take the
// process's memory with it. Past the limit, reading stops and the connection is dropped.

/** An answer longer than its limit; retried like an outage, so that a raised limit lets it through. */
export class AnswerTooLargeError extends Error {
  override name = 'AnswerTooLargeError';
  readonly retryable = true;
  constructor(
    /** e.g. "GET /v3/transfers/:id (read transfer)" */
    readonly call: string,
    readonly limit: number,
    advice: string,
  ) {
    super(`${call} answered with more than ${limit} bytes, the limit; ${advice}`);
  }
}

/** The body's bytes, or AnswerTooLargeError once more than `limit` bytes came (the rest is not read). */
export async function readCapped(
  body: AsyncIterable<Uint8Array> & { destroy(): unknown },
  limit: number,
  call: string,
  advice: string,
): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > limit) {
      body.destroy();
      throw new AnswerTooLargeError(call, limit, advice);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}
