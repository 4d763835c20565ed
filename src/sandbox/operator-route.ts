import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { parseJson } from '../json.js';
import type { SandboxContext } from './context.js';
import { validationError } from './errors.js';
import { parseWith } from './provider-route.js';

// Operator routes play the provider's reviewers, customers and the outside world: no credentials
// (the sandbox listens on loopback), the provider's error body, and nothing changed when they refuse.

type Handler<B> = (params: Record<string, string>, body: B) => unknown | Promise<unknown>;

/** Registers one operator route; `schema` validates its body (none: the body as sent, or `{}`). */
export type OperatorRoute = <S extends z.ZodType>(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  schema: S | undefined,
  handler: Handler<z.output<S>>,
) => void;

export function operatorRoutes(app: FastifyInstance, ctx: SandboxContext): OperatorRoute {
  return (method, path, schema, handler) => {
    app.route({
      method,
      url: path,
      handler: async (req: FastifyRequest, reply: FastifyReply) => {
        const raw = Buffer.isBuffer(req.body) ? req.body : undefined;
        let json: unknown = {};
        if (raw && raw.length > 0) {
          try {
            json = parseJson(raw.toString('utf8'));
          } catch {
            throw validationError('body', 'the body must be JSON');
          }
        }
        const body = schema ? parseWith(schema, json) : json;
        const result = await handler(req.params as Record<string, string>, body as never);
        if (method !== 'GET') ctx.changed();
        return reply.send(result);
      },
    });
  };
}
