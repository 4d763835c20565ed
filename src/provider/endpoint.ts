import type { z } from 'zod';

// One declarative entry per provider call: adding an endpoint is a few lines in endpoints.ts.
export interface Endpoint<P extends z.ZodType, B extends z.ZodType, R extends z.ZodType> {
  /** Words a person recognises in an error message, e.g. "create wallet". */
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path with `:param` placeholders, e.g. /v3/transfers/:transferId. Its version prefix sets X-Api-Version. */
  path: string;
  params?: P;
  /** Query parameters the call takes; validated, then part of the signed URL. */
  query?: z.ZodType;
  body?: B;
  /** 'json' (default): the body is serialised once and those bytes are signed; 'raw': `{ bytes, contentType }` sent as is. */
  bodyKind?: 'json' | 'raw';
  response: R;
  /** Signature auth adds `timestamp` unless the call needs none (docs/provider-contract.md §4.7). */
  timestamp?: boolean;
  /** false for the one call made before any credentials exist (docs/provider-contract.md §4.2). */
  auth?: boolean;
  /**
   * Whether the call creates something, which decides the transient:false rule (docs/provider-contract.md
   * §OP-1): by default a POST creates; a POST that only computes an answer says false.
   */
  creates?: boolean;
}

export type AnyEndpoint = Endpoint<z.ZodType, z.ZodType, z.ZodType>;

export function defineEndpoint<
  P extends z.ZodType = z.ZodNever,
  B extends z.ZodType = z.ZodNever,
  R extends z.ZodType = z.ZodType,
>(endpoint: Endpoint<P, B, R>): Endpoint<P, B, R> {
  return endpoint;
}
