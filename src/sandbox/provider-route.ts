import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { parseJson } from '../json.js';
import { type Actor, type AuthOptions, authenticate, rawQueryParam, resolveActor } from './auth.js';
import type { SandboxContext } from './context.js';
import { SandboxError, validationError } from './errors.js';
import type { Credential } from './store.js';
import type { Endpoint } from '../provider/endpoint.js';

// The sandbox's side of each provider call, from the call's definition (src/provider/endpoints.ts):
// fault knobs, authentication, masquerade, the v2 version header, body parsing with the documented
// error body, and replay of requests with an Idempotency-Key. A request refused by any changes nothing.

export interface ProviderRequest<B = unknown> {
  req: FastifyRequest;
  cred: Credential;
  actor: Actor;
  params: Record<string, string>;
  /** The body parsed as JSON and validated with the call's schema (undefined for a call without one, or of raw bytes). */
  body: B;
  /** The body as received, for routes that take raw bytes. */
  raw: Buffer | undefined;
  /** The query as received (first value of each parameter). */
  query: Record<string, string>;
  /** scheme://host as the client addressed the sandbox, for URLs in responses. */
  publicBase: string;
}

interface RouteOptions {
  /** Open to a client-held token that no account has bound yet (docs/provider-contract.md §5.3: account creation). */
  unbound?: boolean;
}

type Handler<B> = (request: ProviderRequest<B>) => unknown | Promise<unknown>;

/** Registers one call: its JSON body checked by its schema (a 'raw' body is the handler's), `auth` and `timestamp` as it says. */
export type ProviderRoute = <P extends z.ZodType, B extends z.ZodType, R extends z.ZodType>(
  endpoint: Endpoint<P, B, R> & RouteOptions,
  handler: Handler<z.output<B>>,
) => void;

export function providerRoutes(app: FastifyInstance, ctx: SandboxContext, auth: AuthOptions): ProviderRoute {
  return (route, handler) => {
    const routeKey = `${route.method} ${route.path}`;
    app.route({
      method: route.method,
      url: route.path,
      handler: async (req: FastifyRequest, reply: FastifyReply) => {
        const fault = await ctx.faults.apply(routeKey);
        if (fault) throw fault;
        const raw = Buffer.isBuffer(req.body) ? req.body : undefined;
        const rawUrl = req.raw.url ?? req.url;
        const query = Object.fromEntries(
          new URLSearchParams(rawUrl.includes('?') ? rawUrl.slice(rawUrl.indexOf('?') + 1) : ''),
        );
        if (route.path.startsWith('/v2/') && req.headers['x-api-version'] !== '2') {
          throw validationError(
            'X-Api-Version',
            'v2 calls must send the header X-Api-Version: 2',
            req.headers['x-api-version'],
          );
        }
        const cred =
          route.auth === false
            ? undefined
            : authenticate(req, ctx.store, auth, raw, { timestampOptional: route.timestamp === false });
        if (cred?.accountId === null && !route.unbound) {
          throw new SandboxError(
            'AccessDeniedException',
            'This token is not bound to an account yet; create the account first (POST /v3/accounts)',
            { errorCode: 'accessDenied.noAccount' },
          );
        }
        const actor =
          !cred || cred.accountId === null
            ? ({ accountId: '', principalId: '' } as Actor)
            : resolveActor(ctx.store, cred, rawQueryParam(rawUrl, 'masqueradeAs'));
        const body =
          route.body && route.bodyKind !== 'raw'
            ? parseBody(route.body, raw, req.headers['content-type'])
            : (undefined as never);

        const key = req.headers['idempotency-key'];
        const idemKey = cred && typeof key === 'string' && key ? `${cred.apiKey} ${key}` : undefined;
        // The same request is the same method, path, masquerade and body (the timestamp differs on every retry).
        const fingerprint = `${req.method} ${req.url.split('?')[0]} ${query.masqueradeAs ?? ''} ${createHash('sha256')
          .update(raw ?? '')
          .digest('hex')}`;
        const previous = idemKey ? ctx.store.state.idempotency[idemKey] : undefined;
        if (previous) {
          if (previous.fingerprint !== fingerprint) {
            throw validationError(
              'Idempotency-Key',
              'this key was already used for a different request; use a new key per distinct request',
              key,
            );
          }
          return reply.code(previous.status).header('idempotent-replay', 'true').send(previous.body);
        }
        const params = req.params as Record<string, string>;
        const publicBase = `${req.protocol}://${req.headers.host ?? 'localhost'}`;
        const result = await handler({ req, cred: cred!, actor, params, body, raw, query, publicBase });
        const status = 200;
        // A snapshot: the replay answers what the first request answered, not the record as it is now.
        if (idemKey) ctx.store.state.idempotency[idemKey] = { fingerprint, status, body: structuredClone(result) };
        if (route.method !== 'GET') ctx.changed();
        return reply.code(status).send(result);
      },
    });
  };
}

/** The MIME type of a Content-Type header, lowercased: RFC 9110 8.3.1 compares types case-insensitively. */
export function mimeType(header: string | string[] | undefined): string {
  return String(header ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
}

function parseBody<S extends z.ZodType>(
  schema: S,
  raw: Buffer | undefined,
  contentType: string | string[] | undefined,
): z.output<S> {
  // docs/provider-contract.md §4: bodies are JSON, Content-Type application/json (any letter case, any parameters).
  if (raw && raw.length > 0 && mimeType(contentType) !== 'application/json') {
    throw validationError(
      'Content-Type',
      'send the JSON body with Content-Type: application/json',
      mimeType(contentType),
    );
  }
  let json: unknown;
  try {
    json = parseJson((raw ?? Buffer.alloc(0)).toString('utf8'));
  } catch {
    throw validationError('body', 'the body must be JSON (Content-Type: application/json)');
  }
  return parseWith(schema, json);
}

/** Validates with the route's schema; the first issue becomes a ValidationException naming its field. */
export function parseWith<T extends z.ZodType>(schema: T, json: unknown): z.output<T> {
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join('.') || 'body';
    const value = issue.path.reduce<unknown>(
      (node, key) => (node && typeof node === 'object' ? (node as Record<PropertyKey, unknown>)[key] : undefined),
      json,
    );
    throw validationError(field, issue.message, value);
  }
  return parsed.data;
}
