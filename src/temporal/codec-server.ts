import type { Payload } from '@temporalio/common';
import Fastify, { type FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { EncryptionCodec } from './codec.js';

// The codec server the Temporal UI calls to show encrypted payloads decoded (and to encode what
// an operator types, e.g. a signal's input). It holds the payload key: serve it on loopback, or
// behind the same access control as the UI, never where the provider's callbacks come in.

const wirePayload = z.object({ metadata: z.record(z.string(), z.string()).default({}), data: z.string().default('') });
const wireBody = z.object({ payloads: z.array(wirePayload) });

const fromWire = (p: z.infer<typeof wirePayload>): Payload => ({
  metadata: Object.fromEntries(Object.entries(p.metadata).map(([k, v]) => [k, Buffer.from(v, 'base64')])),
  data: Buffer.from(p.data, 'base64'),
});
const toWire = (p: Payload) => ({
  metadata: Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v ?? new Uint8Array()).toString('base64')])),
  data: Buffer.from(p.data ?? new Uint8Array()).toString('base64'),
});

export function createCodecServer(codec: EncryptionCodec, opts: { allowedOrigins: string[] }): FastifyInstance {
  const app = Fastify({ logger: false, bodyLimit: 4 * 1024 * 1024 });
  app.addHook('onRequest', async (req, reply) => {
    const origin = req.headers.origin;
    if (origin && opts.allowedOrigins.includes(origin)) {
      reply.header('access-control-allow-origin', origin);
      reply.header('access-control-allow-methods', 'POST, OPTIONS');
      reply.header('access-control-allow-headers', 'content-type, x-namespace, authorization');
      reply.header('access-control-allow-credentials', 'true');
    }
    if (req.method === 'OPTIONS') return reply.code(204).send();
  });
  for (const op of ['encode', 'decode'] as const) {
    app.post(`/${op}`, async (req, reply) => {
      const parsed = wireBody.safeParse(req.body);
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
