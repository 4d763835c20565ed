import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { errors, type KoaContext, type IssuedToken } from 'oidc-provider';
import { issuerProblem, PERMISSIONS_CLAIM } from '../settings/sign-in.js';

// The stand-in for the company's identity provider: `oidc-provider` (an OpenID Certified
// provider) with a few test users and clients, for `npm run cluster`, compose and the tests. It is
// never the product's own token issuer: a deployment points the Web UI, the codec server and
// Temporal at its real provider instead (docs/security.md). Its users sign in on its own login
// page (username and password); access tokens are JWTs for one audience, carrying the user's or
// the service's permissions in Temporal's form, `<namespace>:read|write|admin`, plus ours,
// `<namespace>:decode`.

export interface StandInUser {
  username: string;
  password: string;
  /** What the user's access token carries in `permissions`. */
  permissions: string[];
}

/** A browser's application (the Web UI): authorization code, with its callback. */
export interface StandInWebClient {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
}

/** A service (worker, ingress, backend): client credentials, with the permissions its tokens carry. */
export interface StandInServiceClient {
  clientId: string;
  clientSecret: string;
  permissions: string[];
  /** Lifetime of its access tokens, when not the provider's (a test's token that expires soon). */
  accessTokenTtlSeconds?: number;
}

export interface StandInIdpOptions {
  /** The issuer, `iss` of every token: https, or http on loopback only. */
  issuer: string;
  /** `aud` of every access token: the resource the codec server and Temporal verify. */
  audience: string;
  users: StandInUser[];
  webClients: StandInWebClient[];
  serviceClients: StandInServiceClient[];
  /** Lifetime of an access token; short in the tests of expiry. */
  accessTokenTtlSeconds?: number;
}

export interface StandInIdp {
  issuer: string;
  /** The published keys, as the discovery document names them. */
  jwksUrl: string;
  tokenUrl: string;
  close(): Promise<void>;
}

const ACCESS_TOKEN_TTL_SECONDS = 3_600;
/** Scopes the Web UI asks for: sign-in, and the user's name. */
const SCOPES = ['openid', 'profile', 'email', 'offline_access'];

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const page = (title: string, body: string) =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><body style="font-family:sans-serif;max-width:24em;margin:4em auto"><h1>${title}</h1><p>Stand-in identity provider (test users only).</p>${body}</body>`;

const loginForm = (uid: string, problem?: string) =>
  page(
    'Sign in',
    `${problem ? `<p role="alert">${escapeHtml(problem)}</p>` : ''}<form method="post" action="/interaction/${escapeHtml(uid)}"><p><label>Username <input name="username" autocomplete="username" required autofocus></label></p><p><label>Password <input type="password" name="password" autocomplete="current-password" required></label></p><p><button type="submit">Sign in</button></p></form>`,
  );

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

async function formBody(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 16 * 1024) throw new Error('the sign-in form is larger than 16 KiB');
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** The provider itself, configured; its HTTP handler serves everything but the login page. */
async function configuredProvider(opts: StandInIdpOptions): Promise<Provider> {
  const users = new Map(opts.users.map((u) => [u.username, u]));
  const services = new Map(opts.serviceClients.map((c) => [c.clientId, c]));
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), kid: randomUUID(), alg: 'RS256', use: 'sig' };
  const ttl = opts.accessTokenTtlSeconds ?? ACCESS_TOKEN_TTL_SECONDS;
  const accessTokenTtl = (_ctx: unknown, token: { resourceServer?: { accessTokenTTL?: number } }) =>
    token.resourceServer?.accessTokenTTL ?? ttl;
  const resourceServer = {
    scope: SCOPES.join(' '),
    audience: opts.audience,
    accessTokenFormat: 'jwt',
    accessTokenTTL: ttl,
    jwt: { sign: { alg: 'RS256' } },
  };
  const provider: Provider = new Provider(opts.issuer, {
    clients: [
      ...opts.webClients.map((c) => ({
        client_id: c.clientId,
        client_secret: c.clientSecret,
        redirect_uris: c.redirectUris,
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      })),
      ...opts.serviceClients.map((c) => ({
        client_id: c.clientId,
        client_secret: c.clientSecret,
        redirect_uris: [],
        grant_types: ['client_credentials'],
        response_types: [],
        token_endpoint_auth_method: 'client_secret_basic',
      })),
    ],
    clientAuthMethods: ['client_secret_basic', 'client_secret_post'],
    jwks: { keys: [signingKey] },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    scopes: SCOPES,
    claims: { openid: ['sub'], profile: ['name', 'preferred_username'], email: ['email'] },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: { enabled: false },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => opts.audience,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, resource: string, client: { clientId: string }) => {
          if (resource !== opts.audience) throw new errors.InvalidTarget(`the only resource is ${opts.audience}`);
          const own = services.get(client.clientId)?.accessTokenTtlSeconds;
          return own === undefined ? resourceServer : { ...resourceServer, accessTokenTTL: own };
        },
      },
    },
    // The clients are first-party: what a signed-in user's client asks for is granted without a consent page.
    loadExistingGrant: async (ctx: KoaContext) => {
      const clientId = ctx.oidc.client!.clientId;
      const session = ctx.oidc.session!;
      const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(clientId);
      if (grantId) return provider.Grant.find(grantId);
      const grant = new provider.Grant({ accountId: session.accountId, clientId });
      grant.addOIDCScope(SCOPES.join(' '));
      grant.addResourceScope(opts.audience, SCOPES.join(' '));
      await grant.save();
      return grant;
    },
    findAccount: (_ctx: unknown, sub: string) => {
      if (!users.has(sub)) return undefined;
      return {
        accountId: sub,
        claims: () => ({ sub, name: sub, preferred_username: sub, email: `${sub}@example.test` }),
      };
    },
    extraTokenClaims: (_ctx: unknown, token: IssuedToken) => {
      if (token.kind === 'ClientCredentials')
        return { [PERMISSIONS_CLAIM]: services.get(token.clientId)?.permissions ?? [] };
      if (token.kind === 'AccessToken')
        return { [PERMISSIONS_CLAIM]: users.get(token.accountId ?? '')?.permissions ?? [] };
      return undefined;
    },
    // An access token lives as long as its resource server says (a client's own, else the provider's).
    ttl: {
      AccessToken: accessTokenTtl,
      ClientCredentials: accessTokenTtl,
      IdToken: ttl,
      Interaction: 600,
      Grant: 86_400,
      Session: 86_400,
    },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    // The UI server exchanges the code without PKCE; the web client is confidential (its secret).
    pkce: { required: () => false },
    renderError: (ctx: { type: string; body: string }, out: Record<string, string>) => {
      ctx.type = 'html';
      ctx.body = page('Sign-in failed', `<pre>${escapeHtml(JSON.stringify(out, null, 2))}</pre>`);
    },
  });
  return provider;
}

/** The login page (GET) and its form (POST): a user with the right password is signed in; another gets the form again. */
async function interaction(
  provider: Provider,
  users: Map<string, StandInUser>,
  req: IncomingMessage,
  res: ServerResponse,
) {
  const html = (status: number, body: string) => {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(body);
  };
  const details = await provider.interactionDetails(req, res);
  if (details.prompt.name !== 'login')
    return html(400, page('Sign-in failed', `<p>Unexpected step ${escapeHtml(details.prompt.name)}.</p>`));
  if (req.method === 'GET') return html(200, loginForm(details.uid));
  const form = await formBody(req);
  const user = users.get(form.get('username') ?? '');
  if (!user || !sameSecret(form.get('password') ?? '', user.password))
    return html(401, loginForm(details.uid, 'Wrong username or password.'));
  await provider.interactionFinished(
    req,
    res,
    { login: { accountId: user.username } },
    { mergeWithLastSubmission: false },
  );
}

/**
 * Starts the stand-in provider on `host`:`port`, over https with `tls` (PEM certificate and key);
 * its issuer must be where browsers and servers reach it.
 */
export async function startStandInIdp(
  opts: StandInIdpOptions & { host: string; port: number; tls?: { cert: Buffer; key: Buffer } },
): Promise<StandInIdp> {
  const problem = issuerProblem(opts.issuer);
  if (problem) throw new Error(`stand-in identity provider: ${problem}`);
  const provider = await configuredProvider(opts);
  const users = new Map(opts.users.map((u) => [u.username, u]));
  const handle = provider.callback();
  const listener: RequestListener = (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (!/^\/interaction\/[^/]+$/.test(path)) return handle(req, res);
    interaction(provider, users, req, res).catch((err: Error) => {
      if (res.headersSent) return void res.end();
      res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' });
      res.end(page('Sign-in failed', `<p>${escapeHtml(err.message)}</p><p>Start again from the application.</p>`));
    });
  };
  const server: Server = opts.tls ? createHttpsServer(opts.tls, listener) : createServer(listener);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, resolve);
  });
  const issuer = opts.issuer.replace(/\/+$/, '');
  return {
    issuer: opts.issuer,
    jwksUrl: `${issuer}/jwks`,
    tokenUrl: `${issuer}/token`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
