import { z } from 'zod';
import { CLAIM_REF, CLAIM_REF_MESSAGE, EMPTY_CONTENT_MESSAGE, SHA256_HEX, SHA256_HEX_MESSAGE } from './ref-shape.js';

/**
 * A reference to bytes in the claim store: documents and personal values travel by reference, never
 * in workflow history. Workflow code checks it without zod, from the same shape (./ref-shape.ts).
 */
export const claimRef = z.object({
  ref: z.string().regex(CLAIM_REF, CLAIM_REF_MESSAGE),
  size: z.number().int().positive(EMPTY_CONTENT_MESSAGE),
  contentType: z.string().min(1),
  /** SHA-256 of the bytes; for personal values (keyed) an HMAC-SHA256 under the store's own key. */
  sha256: z.string().regex(SHA256_HEX, SHA256_HEX_MESSAGE),
  keyed: z.boolean().optional(),
});
export type ClaimRef = z.infer<typeof claimRef>;
