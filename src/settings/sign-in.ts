import { z } from 'zod';
import type { Kind } from './kinds.js';

// What sign-in settings share: an OpenID issuer as a setting (the exact `iss` of its tokens, https
// anywhere, plain http only on loopback: a token or a key fetched over http elsewhere could be read
// or swapped on the way), and the claim that carries permissions.

/** The claim Temporal's default JWT claim mapper reads permissions from (`<namespace>:<role>`). */
export const PERMISSIONS_CLAIM = 'permissions';

const LOOPBACK = ['127.0.0.1', '[::1]', 'localhost'];

/** Why `issuer` may not be one; undefined when it may. */
export function issuerProblem(issuer: string): string | undefined {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return 'must be an https:// address (the issuer as its tokens name it)';
  }
  if (url.search || url.hash || url.username || url.password)
    return 'an issuer takes no user:password@, ?query or #fragment';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && LOOPBACK.includes(url.hostname)) return undefined;
  return 'must be https:// (http:// only on loopback: 127.0.0.1, [::1], localhost)';
}

export const issuer: Kind<string> = {
  schema: z.string().superRefine((value, ctx) => {
    const problem = issuerProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
};
