import { z } from 'zod';

// Open-points "Upload a document": the body is the raw file with its MIME type, at most 7.75 MB.
export const MAX_DOCUMENT_BYTES = Math.floor(7.75 * 1024 * 1024);
export const documentMimeTypes = [
  'application/pdf',
  'image/jpeg',
  'image/png',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
] as const;

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
  documentType: z
    .string()
    .regex(/^[A-Z_]+$/, 'documentType is an upper-case word such as GOVT_ID or PASSPORT')
    .optional(),
  documentSubType: z.enum(['FRONT', 'BACK']).optional(),
});
