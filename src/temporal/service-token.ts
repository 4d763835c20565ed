import { decodeJwt } from 'jose';

// A service's access token for Temporal from the company's identity provider, by OAuth 2.0 client
// credentials (RFC 6749 section 4.4): fetched at start and again before it expires, so a worker or an
// ingress that runs for weeks always holds a valid one. Temporal receives it as the connection's
// API key (`Authorization: Bearer …`) and its JWT claim mapper reads the service's role from it.

export interface ClientCredentials {
  /** The provider's token endpoint (TEMPORAL_OAUTH_TOKEN_URL). */
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  /** Asked for where the provider needs it (Entra ID: `api://…/.default`). */
  scope?: string;
}

export interface ServiceTokenSource {
  /** The token held now: fetched at start, replaced before it expires. */
  current(): string;
  /** Called with each token that replaces the held one. */
  onRefresh(listener: (token: string) => void): void;
  /** No more refreshes. */
  stop(): void;
}

/** A token is replaced once this share of its lifetime has passed. */
const REFRESH_AT = 0.8;
/** After a failed refresh the next try waits this long, doubling up to RETRY_MAX_MS. */
const RETRY_MS = 1_000;
const RETRY_MAX_MS = 60_000;
/** Never sooner than this after a token arrives, however short its life. */
const REFRESH_MIN_MS = 500;
const REQUEST_TIMEOUT_MS = 10_000;

/** The first token, then refreshes in the background; a first fetch that fails rejects, saying why. */
export async function startServiceTokenSource(
  credentials: ClientCredentials,
  opts: { log?: (line: string) => void } = {},
): Promise<ServiceTokenSource> {
  const log = opts.log ?? (() => {});
  let held = await fetchToken(credentials);
  const listeners: ((token: string) => void)[] = [];
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const schedule = (ms: number, retryMs: number) => {
    if (stopped) return;
    timer = setTimeout(() => void refresh(retryMs), ms);
    // A refresh never keeps a process alive that has nothing else to do.
    timer.unref();
  };
  const refresh = async (retryMs: number) => {
    try {
      held = await fetchToken(credentials);
    } catch (err) {
      log(`${(err as Error).message}; the held token stays in use, next try in ${retryMs / 1000} s`);
      schedule(retryMs, Math.min(retryMs * 2, RETRY_MAX_MS));
      return;
    }
    for (const listener of listeners) listener(held.token);
    scheduleRefresh();
  };
  const scheduleRefresh = () => schedule(Math.max(held.lifetimeMs * REFRESH_AT, REFRESH_MIN_MS), RETRY_MS);
  scheduleRefresh();
  return {
    current: () => held.token,
    onRefresh: (listener) => void listeners.push(listener),
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

interface HeldToken {
  token: string;
  lifetimeMs: number;
}

/** One token from the endpoint, with how long it lives (`expires_in`, or the JWT's `exp`). */
export async function fetchToken(credentials: ClientCredentials): Promise<HeldToken> {
  const { tokenUrl, clientId, clientSecret, scope } = credentials;
  const what = 'the Temporal service token from TEMPORAL_OAUTH_TOKEN_URL';
  // RFC 6749 section 2.3.1: the id and secret are form-encoded before they are joined and base64-encoded.
  const basic = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64');
  const body = new URLSearchParams({ grant_type: 'client_credentials', ...(scope ? { scope } : {}) });
  let response: Response;
  try {
    response = await fetch(tokenUrl, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (err) {
    throw new Error(`Fetching ${what} failed (${(err as Error).message}); check the URL and that the provider runs`, {
      cause: err,
    });
  }
  const text = await response.text();
  let answer: { access_token?: unknown; expires_in?: unknown; error?: unknown } = {};
  try {
    answer = JSON.parse(text) as typeof answer;
  } catch {
    // Said below by the status, or by the missing token.
  }
  if (!response.ok) {
    const error = typeof answer.error === 'string' ? ` ${answer.error}` : '';
    const next =
      response.status === 400 || response.status === 401
        ? 'check TEMPORAL_OAUTH_CLIENT_ID and TEMPORAL_OAUTH_CLIENT_SECRET (and TEMPORAL_OAUTH_SCOPE where the provider needs one)'
        : 'check the URL and the provider';
    throw new Error(`Fetching ${what} was refused: HTTP ${response.status}${error}; ${next}`);
  }
  if (typeof answer.access_token !== 'string' || answer.access_token === '')
    throw new Error(
      `Fetching ${what}: the answer has no access_token; is TEMPORAL_OAUTH_TOKEN_URL the token endpoint?`,
    );
  return { token: answer.access_token, lifetimeMs: lifetimeMs(answer.access_token, answer.expires_in) };
}

function lifetimeMs(token: string, expiresIn: unknown): number {
  if (typeof expiresIn === 'number' && expiresIn > 0) return expiresIn * 1000;
  let exp: number | undefined;
  try {
    exp = decodeJwt(token).exp;
  } catch {
    // Not a JWT: only expires_in could have said.
  }
  if (exp !== undefined) return Math.max(0, exp * 1000 - Date.now());
  throw new Error(
    'The Temporal service token from TEMPORAL_OAUTH_TOKEN_URL says no lifetime (no expires_in, and not a JWT with exp); it could not be refreshed in time',
  );
}
