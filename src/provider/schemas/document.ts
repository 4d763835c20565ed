import { z } from 'zod';
import {
  DOCUMENT_TYPE,
  DOCUMENT_TYPE_MESSAGE,
  documentMimeTypes,
  documentSubTypes,
  MAX_DOCUMENT_BYTES,
} from '../documents.js';

export { documentMimeTypes, MAX_DOCUMENT_BYTES };

export const documentBody = z.object({
  bytes: z
    .custom<Uint8Array>((v) => v instanceof Uint8Array, {
      message: "bytes must be the file's bytes (a Buffer or Uint8Array)",
    })
    .refine((b) => b.byteLength > 0, 'the file is empty')
    .refine(
      (b) => b.byteLength <= MAX_DOCUMENT_BYTES,
      `the file is larger than 7.75 MB (${MAX_DOCUMENT_BYTES} bytes); compress or scan it at a lower resolution`,
    ),
  // RFC 9110 8.3.1: type and subtype are case-insensitive; sent lowercased, parameters dropped.
  contentType: z.preprocess(
    (v) => (typeof v === 'string' ? v.split(';')[0]!.trim().toLowerCase() : v),
    z.enum(documentMimeTypes, { message: `contentType must be one of ${documentMimeTypes.join(', ')}` }),
  ),
});
export type DocumentBody = z.infer<typeof documentBody>;

export const documentQuery = z.object({
  documentType: z.string().regex(DOCUMENT_TYPE, DOCUMENT_TYPE_MESSAGE).optional(),
  documentSubType: z.enum(documentSubTypes).optional(),
});
