import type { Payload } from '@temporalio/common';
import { timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { EncryptionCodec } from './codec.js';

// The codec server the Temporal UI calls to show encrypted payloads decoded (and to encode what
// an operator types, e.g. a signal's input). It holds the payload key: serve it on loopback, or
// behind the same access control as the UI, never where the provider's callbacks come in.

const wirePayload = z.object({ metadata: z.record(z.string(), z.string()).default({}), data: z.string().default('') });
// Protobuf's JSON leaves out an empty list: the CLI sends `{}` for a query without arguments.
const wireBody = z.object({ payloads: z.array(wirePayload).default([]) });

const fromWire = (p: z.infer<typeof wirePayload>): Payload => ({
  metadata: Object.fromEntries(Object.entries(p.metadata).map(([k, v]) => [k, Buffer.from(v, 'base64')])),
  data: Buffer.from(p.data, 'base64'),
});
const toWire = (p: Payload) => ({
  metadata: Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v ?? new Uint8Array()).toString('base64')])),
  data: Buffer.from(p.data ?? new Uint8Array()).toString('base64'),
});

export interface CodecAccess {
  /** Origins of the Web UI (the browser calls the codec server from the UI's pages). */
  allowedOrigins: string[];
  /**
   * Host headers the server answers to, `host:port`: a page whose DNS name was rebound to this
   * address sends its own name, and is refused.
   */
  allowedHosts: string[];
  /** CODEC_SERVER_TOKEN: when set, every request needs `Authorization: Bearer <token>`. */
  token?: string;
}

/**
 * Who may have payloads decrypted: a caller with the bearer token, or, with no token configured
 * (the embedded stack only: see codecAccessProblem), a browser on the Web UI's origin. Both only
 * under an allowed Host. Exposed for tests.
 */
export function authorised(access: CodecAccess, headers: { host?: string; origin?: string; authorization?: string }): { ok: true } | { ok: false; status: 401 | 403; error: string } {
  if (!headers.host || !access.allowedHosts.includes(headers.host.toLowerCase())) {
    return { ok: false, status: 403, error: `Host ${headers.host ?? '(none)'} is not one this codec server answers to; set CODEC_SERVER_ALLOWED_HOSTS` };
  }
  if (headers.origin && !access.allowedOrigins.includes(headers.origin)) {
    return { ok: false, status: 403, error: `Origin ${headers.origin} may not call this codec server; set CODEC_SERVER_ALLOWED_ORIGINS` };
  }
  if (access.token) {
    const given = /^bearer\s+(.+)$/i.exec(headers.authorization ?? '')?.[1] ?? '';
    const a = Buffer.from(given);
    const b = Buffer.from(access.token);
    if (a.length !== b.length || !timingSafeEqual(a, b)) return { ok: false, status: 401, error: 'a bearer token is required: Authorization: Bearer <CODEC_SERVER_TOKEN>' };
    return { ok: true };
  }
  if (!headers.origin) return { ok: false, status: 401, error: 'no token is configured, so only the Web UI (an allowed Origin) may call; set CODEC_SERVER_TOKEN for other callers' };
  return { ok: true };
}

/** Why a codec server could not start with this access where it listens; undefined when it can. */
export function codecAccessProblem(access: CodecAccess & { publishedOnLoopback?: boolean }, host: string): string | undefined {
  // In a container, the server listens on every interface of the container while its port is
  // published on the host's loopback alone (compose): the operator says so explicitly.
  const loopback = host === '127.0.0.1' || host === '::1' || host === 'localhost' || access.publishedOnLoopback === true;
  if (!loopback && !access.token) return `CODEC_SERVER_HOST=${host} is reachable from other machines: set CODEC_SERVER_TOKEN (e.g. \`openssl rand -hex 32\`) so that only holders of the token can decrypt payloads`;
  return undefined;
}

export function createCodecServer(codec: EncryptionCodec, access: CodecAccess): FastifyInstance {
  const app = Fastify({ logger: false, bodyLimit: 4 * 1024 * 1024 });
  app.addHook('onRequest', async (req, reply) => {
    const origin = req.headers.origin;
    if (origin && access.allowedOrigins.includes(origin)) {
      reply.header('access-control-allow-origin', origin);
      reply.header('access-control-allow-methods', 'POST, OPTIONS');
      reply.header('access-control-allow-headers', 'content-type, x-namespace, authorization');
      reply.header('access-control-allow-credentials', 'true');
      reply.header('vary', 'origin');
    }
    if (req.method === 'OPTIONS') return reply.code(204).send();
    const verdict = authorised(access, { host: req.headers.host, origin, authorization: req.headers.authorization });
    if (!verdict.ok) return reply.code(verdict.status).send({ error: verdict.error });
  });
  for (const op of ['encode', 'decode'] as const) {
    app.post(`/${op}`, async (req, reply) => {
      const parsed = wireBody.safeParse(req.body ?? {});
      if (!parsed.success) return reply.code(400).send({ error: `the body must be { payloads: [{ metadata, data }] } in base64: ${parsed.error.issues[0]!.message}` });
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
