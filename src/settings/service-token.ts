import { z } from 'zod';
import type { ClientCredentials } from '../temporal/service-token.js';
import { isLoopback } from '../temporal/plaintext.js';
import type { Kind } from './kinds.js';

// A service's credentials for a Temporal server that authorizes (docs/security.md): a static
// TEMPORAL_API_KEY (Temporal's envconfig reads it), or client credentials at the identity
// provider (TEMPORAL_OAUTH_*), whose tokens src/temporal/service-token.ts fetches and refreshes.

/** The token endpoint: https, or http on loopback only (a client secret and tokens travel on it). */
export const tokenEndpoint: Kind<string> = {
  schema: z.string().superRefine((value, ctx) => {
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {
      // Said below.
    }
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:'))
      ctx.addIssue({ code: 'custom', message: "must be the provider's https:// token endpoint" });
    else if (url.username || url.password || url.hash)
      ctx.addIssue({ code: 'custom', message: 'a token endpoint takes no user:password@ or #fragment' });
    else if (url.protocol === 'http:' && !isLoopback(url.host))
      ctx.addIssue({
        code: 'custom',
        message:
          'must be https:// (http:// only on loopback: 127.0.0.1, [::1], localhost): the client secret travels on it',
      });
  }),
};

interface OAuthValues {
  tokenUrl?: string;
  clientId?: string;
  clientSecret?: string;
  scope?: string;
}

/** What is wrong between the TEMPORAL_OAUTH_* settings and TEMPORAL_API_KEY, as `VARIABLE: what to do`. */
export function serviceTokenProblems(oauth: OAuthValues, env: Record<string, string | undefined>): string[] {
  const required = {
    TEMPORAL_OAUTH_TOKEN_URL: oauth.tokenUrl,
    TEMPORAL_OAUTH_CLIENT_ID: oauth.clientId,
    TEMPORAL_OAUTH_CLIENT_SECRET: oauth.clientSecret,
  };
  const given = Object.entries(required).filter(([, v]) => v !== undefined);
  if (given.length === 0)
    return oauth.scope === undefined
      ? []
      : [
          'TEMPORAL_OAUTH_SCOPE: set only with TEMPORAL_OAUTH_TOKEN_URL, TEMPORAL_OAUTH_CLIENT_ID and TEMPORAL_OAUTH_CLIENT_SECRET',
        ];
  const problems = Object.entries(required)
    .filter(([, v]) => v === undefined)
    .map(([name]) => `${name}: required with ${given.map(([n]) => n).join(', ')} (client credentials need all three)`);
  if (/^\s*(false|0)\s*$/i.test(env.TEMPORAL_TLS ?? ''))
    problems.push(
      'TEMPORAL_TLS: remove TEMPORAL_TLS=false (client credentials imply TLS), or the TEMPORAL_OAUTH_* settings: the service token would travel in clear',
    );
  if (env.TEMPORAL_API_KEY)
    problems.push(
      'TEMPORAL_API_KEY: unset it, or the TEMPORAL_OAUTH_* settings: a service authenticates with one credential, a static key or tokens from the provider',
    );
  return problems;
}

/** The client credentials when they are set (serviceTokenProblems found nothing wrong). */
export function clientCredentials(oauth: OAuthValues): ClientCredentials | undefined {
  const { tokenUrl, clientId, clientSecret, scope } = oauth;
  if (!tokenUrl || !clientId || !clientSecret) return undefined;
  return { tokenUrl, clientId, clientSecret, ...(scope ? { scope } : {}) };
}

/** The environment with TLS on where tokens will be sent and nothing says otherwise, as an API key implies it. */
export function withTokenTls(
  env: Record<string, string | undefined>,
  oauth: OAuthValues,
): Record<string, string | undefined> {
  return oauth.tokenUrl && !env.TEMPORAL_TLS ? { ...env, TEMPORAL_TLS: 'true' } : env;
}
