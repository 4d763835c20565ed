import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { type AuthOptions, authenticate } from './auth';
import type { SandboxContext } from './context';
import { SandboxError, sendError, validationError } from './errors';
import type { Credential } from './store';

// Registers a provider route: authentication, the v2 version header, JSON body parsing with the
// documented error body, and replay of requests that carry an Idempotency-Key.

export interface ProviderRequest {
  req: FastifyRequest;
  cred: Credential;
  params: Record<string, string>;
  /** The body parsed as JSON and validated with the route's schema. */
  body: unknown;
}

type Handler = (r: ProviderRequest) => unknown | Promise<unknown>;

export function providerRoute(
  app: FastifyInstance,
  ctx: SandboxContext,
  auth: AuthOptions,
  route: { method: 'GET' | 'POST'; path: string; body?: z.ZodType; status?: number },
  handler: Handler,
): void {
  app.route({
    method: route.method,
    url: route.path,
    handler: async (req: FastifyRequest, reply: FastifyReply) => {
      try {
        const raw = Buffer.isBuffer(req.body) ? req.body : undefined;
        const cred = authenticate(req, ctx.store, auth, raw);
        if (route.path.startsWith('/v2/') && req.headers['x-api-version'] !== '2') {
          throw validationError('X-Api-Version', 'v2 calls must send the header X-Api-Version: 2', req.headers['x-api-version']);
        }
        const body = route.body ? parseBody(route.body, raw) : undefined;

        const key = req.headers['idempotency-key'];
        const idemKey = typeof key === 'string' && key ? `${cred.accountId} ${key}` : undefined;
        const fingerprint = `${req.method} ${req.url.split('?')[0]} ${createHash('sha256').update(raw ?? '').digest('hex')}`;
        if (idemKey) {
          const previous = ctx.store.state.idempotency[idemKey];
          if (previous) {
            if (previous.fingerprint !== fingerprint) {
              throw validationError('Idempotency-Key', 'this key was already used for a different request; use a new key per distinct request', key);
            }
            return reply.code(previous.status).header('idempotent-replay', 'true').send(previous.body);
          }
        }
        const result = await handler({ req, cred, params: req.params as Record<string, string>, body });
        const status = route.status ?? 200;
        if (idemKey) {
          ctx.store.state.idempotency[idemKey] = { fingerprint, status, body: result };
          ctx.changed();
        }
        return reply.code(status).send(result);
      } catch (err) {
        if (err instanceof SandboxError) return sendError(reply, err);
        throw err;
      }
    },
  });
}

function parseBody(schema: z.ZodType, raw: Buffer | undefined): unknown {
  let json: unknown;
  try {
    json = JSON.parse((raw ?? Buffer.alloc(0)).toString('utf8'));
  } catch {
    throw validationError('body', 'the body must be JSON (Content-Type: application/json)');
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join('.') || 'body';
    const value = issue.path.reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined), json);
    throw validationError(field, issue.message, value);
  }
  return parsed.data;
}
