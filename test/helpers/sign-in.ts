import type { StandInIdp, StandInIdpOptions } from '../../src/stand-in-idp/provider.js';
import { freePort } from '../../src/temporal/ports.js';

// Real tokens from a real provider for the tests: the stand-in identity provider in this process,
// a service's token from its token endpoint, and a user's by the authorization code flow through
// its own login page, as a browser goes (cookies kept, redirects followed by hand).

/** A stand-in provider on a free loopback port; the issuer is its address. */
export async function inProcessIdp(
  opts: Omit<StandInIdpOptions, 'issuer'>,
): Promise<StandInIdp & { options: StandInIdpOptions }> {
  const port = await freePort();
  const options = { ...opts, issuer: `http://127.0.0.1:${port}` };
  // Imported here, not above: every test process loads this file (through the cluster helper), and
  // oidc-provider takes about 2 s of CPU to import.
  const { startStandInIdp } = await import('../../src/stand-in-idp/provider.js');
  return { ...(await startStandInIdp({ ...options, host: '127.0.0.1', port })), options };
}

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

async function tokenResponse(tokenUrl: string, auth: string, body: URLSearchParams) {
  const res = await fetch(tokenUrl, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
  const json = (await res.json()) as { access_token?: string; error_description?: string };
  if (!json.access_token) throw new Error(`${tokenUrl} answered ${res.status}: ${json.error_description ?? ''}`);
  return json.access_token;
}

/** A service's access token (client credentials). */
export const serviceToken = (tokenUrl: string, clientId: string, clientSecret: string) =>
  tokenResponse(tokenUrl, basic(clientId, clientSecret), new URLSearchParams({ grant_type: 'client_credentials' }));

/** A user's access token: sign-in on the provider's login page for `client`, then the code exchanged at the token endpoint. */
export async function userToken(
  idp: { issuer: string; tokenUrl: string },
  client: { clientId: string; clientSecret: string; redirectUri: string },
  user: { username: string; password: string },
): Promise<string> {
  const jar = new Map<string, string>();
  const go = async (url: string, init: RequestInit = {}) => {
    const res = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: {
        ...(init.headers as Record<string, string>),
        cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
      },
    });
    for (const c of res.headers.getSetCookie()) {
      const pair = c.split(';')[0]!;
      jar.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
    }
    return { res, next: new URL(res.headers.get('location') ?? '', url).href };
  };
  const authorize = new URL(`${idp.issuer}/auth`);
  authorize.search = new URLSearchParams({
    client_id: client.clientId,
    response_type: 'code',
    scope: 'openid profile email',
    redirect_uri: client.redirectUri,
    state: 'test-state',
    nonce: 'test-nonce',
  }).toString();
  const login = (await go(authorize.href)).next;
  const signedIn = await go(login, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(user).toString(),
  });
  if (signedIn.res.status !== 303)
    throw new Error(`the login page answered ${signedIn.res.status}: ${await signedIn.res.text()}`);
  let { next } = signedIn;
  while (!next.startsWith(client.redirectUri)) ({ next } = await go(next));
  const code = new URL(next).searchParams.get('code');
  if (!code) throw new Error(`no code in the callback: ${next}`);
  return tokenResponse(
    idp.tokenUrl,
    basic(client.clientId, client.clientSecret),
    new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: client.redirectUri }),
  );
}
