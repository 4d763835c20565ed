import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { claimStoreFromConfig } from '../claims/from-config.js';
import { type ClaimStore, putValue } from '../claims/store.js';
import type { Config } from '../config.js';
import { documentMimeTypes, MAX_DOCUMENT_BYTES } from '../provider/documents.js';
import { MAX_VALUE_BYTES } from '../../workflows/kyc/messages.js';
import { authorised, type CodecAccess } from './codec-server.js';

// POST /claims beside the codec server: a backend in another language stores a claim and gets its
// ClaimRef (docs/other-languages.md), so one envelope implementation seals every claim. Only a
// backend's bearer token may store: nothing a browser does needs it.

// The subject sits in the claim's metadata in plain text (an erasure finds it there), so it is
// the business key (an account id, a payment method id), never an email address or an SSN.
const notPersonal = 'subject must be a business key, never personal data';
/**
 * An SSN anywhere in a subject: 3, 2 and 4 digits with any of the subject's separators between them
 * (`SSN-078-05-1120`, `123.45.6789`, `AC_078_05_1120`), or 9 digits in a row standing alone
 * (`ssn-078051120`). Not 9 digits inside a run of letters and digits: a provider id
 * (`AC_` and 11 letters and digits) can hold nine in a row, one id in about 90,000.
 */
const SSN_IN_SUBJECT =
  /(?<!\d)(?:\d{3}[-._:]\d{2}[-._:]?\d{4}|\d{3}[-._:]?\d{2}[-._:]\d{4})(?!\d)|(?<![A-Za-z0-9])\d{9}(?![A-Za-z0-9])/;
const subject = z
  .string()
  .regex(/^[A-Za-z0-9_.:-]{1,200}$/, `${notPersonal} (1 to 200 letters, digits, _ . : or -; no @)`)
  .refine((s) => !SSN_IN_SUBJECT.test(s), `${notPersonal} (it holds something shaped like an SSN)`)
  .optional();

// Node decodes base64 leniently ("AAAAA" as 3 bytes): only data that the decoded bytes encode back
// to exactly is taken, so a document cut short or mangled on the way is refused, not stored.
const base64 = z
  .string()
  .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'data must be base64')
  .refine(
    (s) => Buffer.from(s, 'base64').toString('base64') === s,
    'data must be canonical base64 (padded with =, its length a multiple of 4): was the document cut short?',
  );

export const claimRequest = z.discriminatedUnion(
  'kind',
  [
    z.object({
      kind: z.literal('value'),
      value: z
        .string()
        .refine((v) => v.trim().length > 0, 'a value is required')
        .refine((v) => Buffer.byteLength(v, 'utf8') <= MAX_VALUE_BYTES, `a value is at most ${MAX_VALUE_BYTES} bytes`),
      subject,
    }),
    z.object({
      kind: z.literal('document'),
      contentType: z.enum(documentMimeTypes, { message: `contentType must be one of ${documentMimeTypes.join(', ')}` }),
      data: base64,
      subject,
    }),
  ],
  { error: 'kind must be "value" (a personal value such as an SSN) or "document"' },
);

/** The store, or why this codec server has none (it is not configured with the workers' claim settings). */
export type ClaimsBackend = { store: ClaimStore } | { unavailable: string };

export function claimsBackendFromConfig(config: Config): ClaimsBackend {
  try {
    return { store: claimStoreFromConfig(config) };
  } catch (err) {
    return {
      unavailable: `this codec server has no claim store: give it the workers' CLAIM_STORE_DIR (or CLAIM_STORE_URL) and CLAIM_ENCRYPTION_KEY (${(err as Error).message})`,
    };
  }
}

export function registerClaimsRoute(app: FastifyInstance, claims: ClaimsBackend, access: CodecAccess): void {
  // A document of the largest size, in base64, with room for the rest of the body.
  const bodyLimit = Math.ceil((MAX_DOCUMENT_BYTES * 4) / 3) + 64 * 1024;
  // Checked on the request's headers (onRequest, before fastify reads the body), so a browser's
  // session, which the codec server's own hook lets in, is refused without up to 10 MB being read.
  const bearerOnly = async (req: FastifyRequest, reply: FastifyReply) => {
    if (!access.token)
      return reply
        .code(403)
        .send({ error: 'the claims endpoint needs CODEC_SERVER_TOKEN set; backends present it as a bearer token' });
    const bearer = authorised(access, { host: req.headers.host, authorization: req.headers.authorization });
    if (!bearer.ok)
      return reply
        .code(401)
        .send({ error: 'claims are stored for a backend only: Authorization: Bearer <CODEC_SERVER_TOKEN>' });
  };
  app.post('/claims', { bodyLimit, onRequest: bearerOnly }, async (req, reply) => {
    if ('unavailable' in claims) return reply.code(503).send({ error: claims.unavailable });
    const parsed = claimRequest.safeParse(req.body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = issue.path.join('.') || 'body';
      return reply.code(400).send({ error: `${field}: ${issue.message}`, field });
    }
    const body = parsed.data;
    const bytes = body.kind === 'document' ? Buffer.from(body.data, 'base64') : undefined;
    if (bytes?.byteLength === 0) return reply.code(400).send({ error: 'data: the document is empty', field: 'data' });
    if (bytes && bytes.byteLength > MAX_DOCUMENT_BYTES)
      return reply.code(400).send({ error: 'data: the document is larger than 7.75 MB', field: 'data' });
    try {
      const ref =
        body.kind === 'value'
          ? await putValue(claims.store, body.value, body.subject)
          : await claims.store.put(bytes!, body.contentType, body.subject ? { subject: body.subject } : {});
      return reply.code(201).send(ref);
    } catch (err) {
      // The stores leave nothing of a claim they could not store.
      return reply.code(503).send({ error: `the claim store failed, nothing was stored: ${(err as Error).message}` });
    }
  });
}
