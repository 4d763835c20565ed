import type { z } from 'zod';

// One declarative entry per provider call: adding an endpoint is a few lines in endpoints.ts.
export interface Endpoint<P extends z.ZodType, B extends z.ZodType, R extends z.ZodType> {
  /** Words a person recognises in an error message, e.g. "create wallet". */
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path with `:param` placeholders, e.g. /v3/transfers/:transferId. Its version prefix sets X-Api-Version. */
  path: string;
  params?: P;
  body?: B;
  response: R;
  /** Signature auth adds `timestamp` unless the call needs none (spec 4.7). */
  timestamp?: boolean;
}

export type AnyEndpoint = Endpoint<z.ZodType, z.ZodType, z.ZodType>;

export function defineEndpoint<P extends z.ZodType = z.ZodNever, B extends z.ZodType = z.ZodNever, R extends z.ZodType = z.ZodType>(
  e: Endpoint<P, B, R>,
): Endpoint<P, B, R> {
  return e;
}
