import { createRemoteJWKSet, errors, type JWTPayload, jwtVerify } from 'jose';
import { ConfigError } from '../config.js';

// The codec server trusts a user signed in at the identity provider: the Web UI passes the user's
// access token (TEMPORAL_CODEC_PASS_ACCESS_TOKEN), verified here against the keys the issuer
// publishes (its discovery document's jwks_uri): signature, issuer, audience, expiry. A valid
// token decodes only if its role claim grants decoding for the namespace the request names.

export interface SignInAccess {
  /** CODEC_SERVER_OIDC_ISSUER: `iss` of the tokens, and where the discovery document is. */
  issuer: string;
  /** CODEC_SERVER_OIDC_AUDIENCE: `aud` every token must have. */
  audience: string;
  /** CODEC_SERVER_OIDC_ROLE_CLAIM: the claim holding roles or groups; a dotted path reaches into objects. */
  roleClaim: string;
  /** CODEC_SERVER_OIDC_DECODE_ROLE: the role that allows decoding; `{namespace}` stands for the request's. */
  decodeRole: string;
}

/** The settings as the table reads them (the issuer unset: no sign-in). */
export interface SignInSettings {
  issuer?: string;
  audience?: string;
  roleClaim: string;
  decodeRole: string;
}

/** The sign-in the codec server trusts, or undefined without an issuer; an issuer without an audience refuses to start. */
export function signInAccess(settings: SignInSettings): SignInAccess | undefined {
  const { issuer, audience, roleClaim, decodeRole } = settings;
  if (issuer === undefined) {
    if (audience !== undefined)
      throw new ConfigError(
        'CODEC_SERVER_OIDC_AUDIENCE is set without CODEC_SERVER_OIDC_ISSUER: set the issuer too, or unset both',
      );
    return undefined;
  }
  if (audience === undefined)
    throw new ConfigError(
      'CODEC_SERVER_OIDC_AUDIENCE: required with CODEC_SERVER_OIDC_ISSUER: the audience of the access tokens the Web UI passes (the API or resource the identity provider issues them for), so that a token issued for another application is refused',
    );
  return { issuer, audience, roleClaim, decodeRole };
}

export type Verdict = { ok: true; subject: string } | { ok: false; status: 401 | 403 | 503; error: string };

/** The roles in `claims` at `path` (dotted): a list of strings, or one string of space-separated roles. */
export function rolesAt(claims: JWTPayload, path: string): string[] {
  let value: unknown = claims;
  for (const part of path.split('.')) {
    value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
  }
  if (typeof value === 'string') return value.split(/\s+/).filter(Boolean);
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

const discoveryUrl = (issuer: string) => `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;

/** Checks users' access tokens for `access`; the issuer's keys are found on first use (and again after a failure). */
export function signInVerifier(access: SignInAccess) {
  let keys: Promise<ReturnType<typeof createRemoteJWKSet>> | undefined;
  const discover = async () => {
    const res = await fetch(discoveryUrl(access.issuer), { signal: AbortSignal.timeout(5_000) });
    if (!res.ok) throw new Error(`${discoveryUrl(access.issuer)} answered ${res.status}`);
    const doc = (await res.json()) as { issuer?: unknown; jwks_uri?: unknown };
    if (doc.issuer !== access.issuer)
      throw new Error(`the discovery document names the issuer ${String(doc.issuer)}, not CODEC_SERVER_OIDC_ISSUER`);
    if (typeof doc.jwks_uri !== 'string') throw new Error('the discovery document has no jwks_uri');
    return createRemoteJWKSet(new URL(doc.jwks_uri));
  };
  const keySet = () => {
    keys ??= discover().catch((err: unknown) => {
      keys = undefined;
      throw err;
    });
    return keys;
  };

  /** Whether the holder of `token` may have the payloads of `namespace` decoded. */
  return async function mayDecode(token: string, namespace: string): Promise<Verdict> {
    let jwks;
    try {
      jwks = await keySet();
    } catch (err) {
      return {
        ok: false,
        status: 503,
        error: `the identity provider's keys could not be read: ${(err as Error).message}`,
      };
    }
    let claims: JWTPayload;
    try {
      ({ payload: claims } = await jwtVerify(token, jwks, { issuer: access.issuer, audience: access.audience }));
    } catch (err) {
      const why =
        err instanceof errors.JWTExpired
          ? 'the access token has expired: sign in again'
          : err instanceof errors.JWTClaimValidationFailed
            ? `the access token's ${err.claim} is not this codec server's (CODEC_SERVER_OIDC_${err.claim === 'aud' ? 'AUDIENCE' : 'ISSUER'})`
            : `the access token is not one the issuer signed (${(err as Error).message})`;
      return { ok: false, status: 401, error: why };
    }
    const role = access.decodeRole.replaceAll('{namespace}', namespace);
    if (!rolesAt(claims, access.roleClaim).includes(role))
      return {
        ok: false,
        status: 403,
        error: `${claims.sub ?? 'this user'} may not decode payloads of ${namespace}: the token's ${access.roleClaim} has no ${role}`,
      };
    return { ok: true, subject: claims.sub ?? '' };
  };
}
