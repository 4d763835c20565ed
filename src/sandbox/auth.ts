import type { FastifyRequest } from 'fastify';
import { requestSignature, signatureMatches } from '../provider/signing.js';
import { parseMasquerade } from '../provider/srn.js';
import { SandboxError } from './errors.js';
import type { Credential, Store } from './store.js';

// docs/provider-contract.md §5.1 and §5.2, checked the way the real service's docs describe: the signature covers the
// URL as received (every query parameter, in its encoding, including ones the sandbox ignores)
// followed by the raw body bytes; timestamps must be recent; bearer tokens are the secret key.

export interface AuthOptions {
  now: () => number;
  /** How far a request's timestamp may be from the sandbox's clock. */
  toleranceMs: number;
}

export interface AuthenticateOptions {
  /** docs/provider-contract.md §4.7: the onboarding link call needs no timestamp. */
  timestampOptional?: boolean;
}

const denied = (errorCode: string, message: string) =>
  new SandboxError('AccessDeniedException', message, { errorCode });

/** The URL exactly as the client sent it: scheme, Host header, and the raw path and query. */
export function receivedUrl(req: FastifyRequest): string {
  return `${req.protocol}://${req.headers.host ?? 'localhost'}${req.raw.url ?? req.url}`;
}

export function rawQueryParam(rawUrl: string, name: string): string | undefined {
  const queryStart = rawUrl.indexOf('?');
  if (queryStart < 0) return undefined;
  return new URLSearchParams(rawUrl.slice(queryStart + 1)).get(name) ?? undefined;
}

export function authenticate(
  req: FastifyRequest,
  store: Store,
  opts: AuthOptions,
  body: Buffer | undefined,
  route: AuthenticateOptions = {},
): Credential {
  const authorization = req.headers.authorization;
  // RFC 9110 11.1: the scheme is case-insensitive, so "bearer" and "BEARER" are Bearer too.
  const bearer = typeof authorization === 'string' ? /^bearer +(.*)$/i.exec(authorization) : null;
  if (bearer) {
    const cred = store.credentialBySecret(bearer[1]!.trim());
    if (!cred) throw denied('accessDenied.invalidSession', 'The bearer token is not a known secret key');
    return cred;
  }

  const apiKey = req.headers['x-api-key'];
  const signature = req.headers['x-api-signature'];
  if (typeof apiKey !== 'string' || typeof signature !== 'string') {
    throw denied(
      'accessDenied.missingCredentials',
      'Send X-Api-Key and X-Api-Signature, or Authorization: Bearer <secret key>',
    );
  }
  const cred = store.credentialByApiKey(apiKey);
  if (!cred) throw denied('accessDenied.invalidApiKey', `Unknown API key ${apiKey}`);

  const url = receivedUrl(req);
  const timestamp = rawQueryParam(req.raw.url ?? '', 'timestamp');
  if (timestamp === undefined && !route.timestampOptional) {
    throw denied(
      'accessDenied.missingTimestamp',
      'Signed requests need the query parameter timestamp (epoch milliseconds)',
    );
  }
  if (timestamp !== undefined && !/^\d+$/.test(timestamp)) {
    throw denied('accessDenied.missingTimestamp', 'The query parameter timestamp must be epoch milliseconds');
  }
  const skew = timestamp === undefined ? 0 : Math.abs(opts.now() - Number(timestamp));
  if (skew > opts.toleranceMs) {
    throw denied(
      'accessDenied.staleTimestamp',
      `The timestamp is ${Math.round(skew / 1000)} s away from the server's clock; sign each request with the current time`,
    );
  }
  const expected = requestSignature(cred.secretKey, url, body ?? '');
  if (!signatureMatches(expected, signature)) {
    throw denied(
      'accessDenied.invalidSignature',
      'X-Api-Signature does not match HMAC-SHA256(secret, URL as sent + body as sent)',
    );
  }
  return cred;
}

/** Who a request acts as: the credential's account, or (docs/provider-contract.md §5.4) one of its sub-accounts or users. */
export interface Actor {
  /** The account acted for (a sub-account when masquerading as one). */
  accountId: string;
  /** Set when masquerading as a user. */
  userId?: string;
  /** The account whose keys signed the request. */
  principalId: string;
}

export function resolveActor(store: Store, cred: Credential, masqueradeAs: string | undefined): Actor {
  const own = cred.accountId!;
  if (masqueradeAs === undefined) return { accountId: own, principalId: own };
  const target = parseMasquerade(masqueradeAs);
  const refuse = () =>
    denied(
      'accessDenied.masquerade',
      `masqueradeAs=${masqueradeAs} is not a sub-account or user of ${own}; a bare id is taken as an account, write user:<id> for a user`,
    );
  if (!target) throw refuse();
  if (target.kind === 'user') {
    if (store.state.users[target.id]?.ownerAccountId !== own) throw refuse();
    return { accountId: own, userId: target.id, principalId: own };
  }
  if (target.id !== own && store.state.accounts[target.id]?.parentId !== own) throw refuse();
  return { accountId: target.id, principalId: own };
}
