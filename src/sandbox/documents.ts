import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { documentMimeTypes, MAX_DOCUMENT_BYTES } from '../provider/schemas/document.js';
import type { SandboxContext } from './context.js';
import { validationError } from './errors.js';
import { newId } from './ids.js';
import { mimeType } from './provider-route.js';
import type { DocumentRecord } from './store.js';

/** An uploaded file: the body's raw bytes with their MIME type, at most 7.75 MB (docs/provider-contract.md §OP-4). */
export function uploadedFile(
  req: FastifyRequest,
  raw: Buffer | undefined,
): Pick<DocumentRecord, 'contentType' | 'size' | 'sha256'> {
  const contentType = mimeType(req.headers['content-type']);
  if (!(documentMimeTypes as readonly string[]).includes(contentType))
    throw validationError(
      'Content-Type',
      `send the file's MIME type, one of ${documentMimeTypes.join(', ')}`,
      contentType,
    );
  if (!raw?.length) throw validationError('body', "the body must be the file's bytes");
  if (raw.length > MAX_DOCUMENT_BYTES)
    throw validationError(
      'body',
      `the file is ${raw.length} bytes; at most ${MAX_DOCUMENT_BYTES} (7.75 MB)`,
      raw.length,
    );
  return { contentType, size: raw.length, sha256: createHash('sha256').update(raw).digest('hex') };
}

export function saveDocument(ctx: SandboxContext, fields: Omit<DocumentRecord, 'id'>): DocumentRecord {
  const doc = { id: newId('DO'), ...fields };
  ctx.store.state.documents[doc.id] = doc;
  return doc;
}
