import { z } from 'zod';

/**
 * A reference to bytes kept in the claim store: documents, and personal values such as an SSN,
 * travel by reference so that they never appear in workflow history. The processes' messages
 * carry it (workflows/messages/common.ts); the stores make and read it. Imports zod alone: it is
 * bundled into workflow code.
 */
export const claimRef = z.object({
  ref: z.string().regex(/^[a-z]+:[A-Za-z0-9._-]+$/, 'ref must be a claim-store reference such as local:<sha256>'),
  size: z.number().int().positive('the stored content is empty'),
  contentType: z.string().min(1),
  /** SHA-256 of the bytes; for personal values (keyed) an HMAC-SHA256 under the store's own key. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'sha256 must be 64 lowercase hex characters'),
  keyed: z.boolean().optional(),
});
export type ClaimRef = z.infer<typeof claimRef>;
