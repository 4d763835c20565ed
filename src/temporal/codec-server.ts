import type { Payload } from '@temporalio/common';
import { createHmac, timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { CodecServerMetrics } from '../telemetry/codec-server-metrics.js';
import { serveMetrics } from '../telemetry/metrics-endpoint.js';
import type { EncryptionCodec } from './codec.js';
import { countRequests, markOutcome } from './codec-server-counting.js';
import { type SignInAccess, signInVerifier } from './codec-server-oidc.js';

// The codec server the Temporal UI calls to show encrypted payloads decoded (and to encode what
// an operator types, e.g. a signal's input). It holds the payload key: serve it on loopback, or
// behind the same access control as the UI, never where the provider's callbacks come in.

const wirePayload = z.object({ metadata: z.record(z.string(), z.string()).default({}), data: z.string().default('') });
// Protobuf's JSON leaves out an empty list: the CLI sends `{}` for a query without arguments.
const wireBody = z.object({ payloads: z.array(wirePayload).default([]) });

const fromWire = (payload: z.infer<typeof wirePayload>): Payload => ({
  metadata: Object.fromEntries(Object.entries(payload.metadata).map(([k, v]) => [k, Buffer.from(v, 'base64')])),
  data: Buffer.from(payload.data, 'base64'),
});
/** A payload as the codec server's JSON carries it: metadata and data in base64. */
export const toWire = (payload: Payload) => ({
  metadata: Object.fromEntries(
    Object.entries(payload.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v ?? new Uint8Array()).toString('base64')]),
  ),
  data: Buffer.from(payload.data ?? new Uint8Array()).toString('base64'),
});

export interface CodecAccess {
  /** Origins of the Web UI (the browser calls the codec server from the UI's pages). */
  allowedOrigins: string[];
  /** Host headers answered, `host:port`: a page whose DNS name was rebound here sends its own, and is refused. */
  allowedHosts: string[];
  /** CODEC_SERVER_TOKEN: when set, every request needs `Authorization: Bearer <token>`. */
  token?: string;
  /** TEMPORAL_NAMESPACE, whose payloads this key is for: a caller naming another in X-Namespace is refused. */
  namespace?: string;
  /**
   * CODEC_SERVER_OIDC_*: users signed in at this identity provider decode with their access token
   * (the Web UI passes it) if its role claim allows; the browser session of /session is then off.
   */
  signIn?: SignInAccess;
}

const SESSION_COOKIE = 'payflows_codec_session';
/** How long a browser stays signed in. */
export const SESSION_MS = 8 * 3_600_000;

/** A browser session's cookie value: its expiry and a MAC of it under the token (never the token itself). */
function sessionValue(token: string, expires: number): string {
  return `${expires}.${createHmac('sha256', token).update(`codec-session:${expires}`).digest('hex')}`;
}

function sameSecret(given: string, expected: string): boolean {
  const givenBytes = Buffer.from(given);
  const expectedBytes = Buffer.from(expected);
  return givenBytes.length === expectedBytes.length && timingSafeEqual(givenBytes, expectedBytes);
}

function validSession(token: string, cookieHeader: string | undefined, now: number): boolean {
  const value =
    (cookieHeader ?? '')
      .split(/;\s*/)
      .find((c) => c.startsWith(`${SESSION_COOKIE}=`))
      ?.slice(SESSION_COOKIE.length + 1) ?? '';
  const expires = Number(value.split('.')[0]);
  return Number.isSafeInteger(expires) && expires > now && sameSecret(value, sessionValue(token, expires));
}

const bearerOf = (authorization: string | undefined) => /^bearer\s+(.+)$/i.exec(authorization ?? '')?.[1] ?? '';
/** A compact JWS (three base64url parts): what a user's access token looks like, unlike the shared token. */
const looksLikeJwt = (bearer: string) => /^[\w-]+\.[\w-]+\.[\w-]*$/.test(bearer);

/**
 * Who may have payloads decrypted, by the shared credential: a caller with the bearer token, a
 * browser signed in at /session (its cookie) unless users sign in at an identity provider, or,
 * with neither configured (the embedded stack only: see codecAccessProblem), a browser on the Web
 * UI's origin. All only under an allowed Host, and a browser only from an allowed Origin. A
 * user's access token is checked by the codec server's hook (signInVerifier). Exposed for tests.
 */
export function authorised(
  access: CodecAccess,
  headers: { host?: string; origin?: string; authorization?: string; cookie?: string },
  now = Date.now(),
): { ok: true } | { ok: false; status: 401 | 403; error: string } {
  if (!hostAllowed(access, headers.host))
    return refused(
      403,
      `Host ${headers.host ?? '(none)'} is not one this codec server answers to; set CODEC_SERVER_ALLOWED_HOSTS`,
    );
  if (headers.origin && !access.allowedOrigins.includes(headers.origin))
    return refused(403, `Origin ${headers.origin} may not call this codec server; set CODEC_SERVER_ALLOWED_ORIGINS`);
  if (access.token && sameSecret(bearerOf(headers.authorization), access.token)) return { ok: true };
  if (access.signIn)
    return refused(
      401,
      `a credential is required: sign in to the Web UI at ${access.signIn.issuer} (it passes your access token), or Authorization: Bearer <CODEC_SERVER_TOKEN>`,
    );
  if (access.token) {
    if (validSession(access.token, headers.cookie, now)) return { ok: true };
    return refused(
      401,
      'a credential is required: Authorization: Bearer <CODEC_SERVER_TOKEN>, or sign this browser in at /session',
    );
  }
  if (!headers.origin)
    return refused(
      401,
      'no token is configured, so only the Web UI (an allowed Origin) may call; set CODEC_SERVER_TOKEN for other callers',
    );
  return { ok: true };
}

const refused = (status: 401 | 403, error: string) => ({ ok: false, status, error }) as const;

const hostAllowed = (access: CodecAccess, host: string | undefined) =>
  host ? access.allowedHosts.includes(host.toLowerCase()) : false;

/**
 * Why a codec server could not start with this access where it listens; undefined when it can.
 * Without a token only the embedded stack's, on loopback: an Origin that lets the UI in can be forged.
 */
export function codecAccessProblem(access: CodecAccess, host: string, opts: { embedded: boolean }): string | undefined {
  if (access.token || access.signIn) return undefined;
  const make =
    'set CODEC_SERVER_OIDC_ISSUER and CODEC_SERVER_OIDC_AUDIENCE (users signed in to the Web UI decode by their role, docs/security.md), or CODEC_SERVER_TOKEN (e.g. `openssl rand -hex 32`): the CLI passes it with --codec-auth "Bearer <token>", and an operator signs the browser in once at <codec server>/session (the Web UI sends the session with TEMPORAL_CODEC_INCLUDE_CREDENTIALS=true)';
  const loopback = host === '127.0.0.1' || host === '::1' || host === 'localhost';
  if (!loopback)
    return `CODEC_SERVER_HOST=${host} is not loopback: other machines (in a container, other containers, even with the port published on the host's loopback only) could have payloads decrypted; ${make}`;
  if (!opts.embedded) return `this codec server decrypts the payloads of a Temporal server it did not start: ${make}`;
  return undefined;
}

const page = (body: string) =>
  `<!doctype html><meta charset="utf-8"><title>payflows codec server</title><body style="font-family:sans-serif;max-width:32em;margin:3em auto">${body}</body>`;

export interface CodecServerOptions {
  /** The clock sessions are issued and checked by; tests move it instead of waiting 8 hours. */
  now?: () => number;
  /** What every request is counted into, by route and outcome; served by createCodecServerOps. */
  metrics?: CodecServerMetrics;
}

export function createCodecServer(
  codec: EncryptionCodec,
  access: CodecAccess,
  { now = Date.now, metrics }: CodecServerOptions = {},
): FastifyInstance {
  const app = Fastify({ logger: false, bodyLimit: 4 * 1024 * 1024 });
  if (metrics) countRequests(app, metrics);
  const mayDecode = access.signIn && signInVerifier(access.signIn);
  app.addHook('onRequest', async (req, reply) => {
    const origin = req.headers.origin;
    if (origin && access.allowedOrigins.includes(origin)) {
      reply.header('access-control-allow-origin', origin);
      reply.header('access-control-allow-methods', 'POST, OPTIONS');
      reply.header('access-control-allow-headers', 'content-type, x-namespace, authorization, authorization-extras');
      reply.header('access-control-allow-credentials', 'true');
      reply.header('vary', 'origin');
    }
    if (req.method === 'OPTIONS') return reply.code(204).send();
    if (req.url === '/session' && !access.signIn) return;
    const { host, authorization, cookie } = req.headers;
    const verdict = authorised(access, { host, origin, authorization, cookie }, now());
    // The Temporal CLI sends an empty X-Namespace when no --namespace is given: that names none.
    const named = req.headers['x-namespace'];
    const bearer = bearerOf(authorization);
    if (!verdict.ok && mayDecode && looksLikeJwt(bearer) && verdict.status === 401) {
      // Not the shared token: a user's access token, for the namespace the request names.
      const namespace = (typeof named === 'string' && named) || access.namespace;
      if (!namespace)
        return reply.code(403).send({ error: 'name the namespace whose payloads to decode in X-Namespace' });
      const user = await mayDecode(bearer, namespace);
      if (!user.ok) return reply.code(user.status).send({ error: user.error });
    } else if (!verdict.ok) return reply.code(verdict.status).send({ error: verdict.error });
    if (access.namespace && typeof named === 'string' && named !== '' && named !== access.namespace) {
      markOutcome(req, 'wrong_namespace');
      return reply.code(400).send({
        error: `X-Namespace ${named} is not this codec server's namespace (${access.namespace}): call the codec server of that namespace's deployment`,
      });
    }
  });

  // With sign-in the browser session is off: it is made from the shared token and carries no
  // user, so it would decode for whoever holds the browser, whatever their role.
  if (!access.signIn) registerSession(app, access, now);
  for (const op of ['encode', 'decode'] as const) {
    app.post(`/${op}`, async (req, reply) => {
      const parsed = wireBody.safeParse(req.body ?? {});
      if (!parsed.success)
        return reply.code(400).send({
          error: `the body must be { payloads: [{ metadata, data }] } in base64: ${parsed.error.issues[0]!.message}`,
        });
      try {
        const out = await codec[op](parsed.data.payloads.map(fromWire));
        return { payloads: out.map(toWire) };
      } catch (err) {
        return reply.code(422).send({ error: (err as Error).message });
      }
    });
  }
  return app;
}

/**
 * Signing a browser in: the token once, in a form on the codec server's own page; the answer is a
 * session cookie (HttpOnly, SameSite=Strict: the UI on the same host sends it, other sites do not).
 */
function registerSession(app: FastifyInstance, access: CodecAccess, now: () => number): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 4096 },
    (_req, body, done) => done(null, new URLSearchParams(body as string)),
  );
  const ownOrigin = (origin: string | undefined, hostHeader: string | undefined) =>
    !origin || origin === `http://${hostHeader}` || origin === `https://${hostHeader}`;
  app.get('/session', async (req, reply) => {
    if (!hostAllowed(access, req.headers.host))
      return reply.code(403).send({ error: 'Host not allowed; set CODEC_SERVER_ALLOWED_HOSTS' });
    const form = access.token
      ? '<form method="post" action="/session"><label>CODEC_SERVER_TOKEN <input type="password" name="token" autofocus></label> <button>Sign in</button></form>'
      : '<p>No CODEC_SERVER_TOKEN is configured: the Web UI is let in by its origin (the embedded stack only).</p>';
    return reply
      .type('text/html')
      .send(
        page(
          `<h1>Codec server</h1><p>Sign this browser in to see payloads decoded in the Temporal Web UI for ${SESSION_MS / 3_600_000} hours.</p>${form}`,
        ),
      );
  });
  app.post('/session', async (req, reply) => {
    if (!hostAllowed(access, req.headers.host))
      return reply.code(403).send({ error: 'Host not allowed; set CODEC_SERVER_ALLOWED_HOSTS' });
    if (!ownOrigin(req.headers.origin, req.headers.host))
      return reply.code(403).send({ error: "a browser is signed in from this codec server's own page only" });
    const given = req.body instanceof URLSearchParams ? (req.body.get('token') ?? '') : '';
    if (!access.token || !sameSecret(given, access.token))
      return reply
        .code(401)
        .type('text/html')
        .send(page('<p>That is not the codec server\'s token. <a href="/session">Try again</a>.</p>'));
    const expires = now() + SESSION_MS;
    reply.header(
      'set-cookie',
      `${SESSION_COOKIE}=${sessionValue(access.token, expires)}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${SESSION_MS / 1000}`,
    );
    return reply
      .type('text/html')
      .send(page('<p>Signed in: the Web UI shows payloads decoded in this browser. You can close this page.</p>'));
  });
}

/**
 * The codec server's operations port (CODEC_SERVER_OPS_PORT): GET /metrics only. A port of its
 * own rather than a route beside /decode: every route of the codec port answers only an allowed
 * Host with the token, and Prometheus has neither; opening one route there would put an exemption
 * in front of the payload key, while this port serves counts alone and can be opened to
 * Prometheus's network without opening the payload routes.
 */
export function createCodecServerOps(metrics: CodecServerMetrics): FastifyInstance {
  const app = Fastify({ logger: false });
  serveMetrics(app, metrics.registry);
  return app;
}
