// The shape of a claim reference (src/claims/ref.ts) written once, without zod: the zod schema is
// built from it for the stores and clients, and workflow code checks references against it.
export const CLAIM_REF = /^[a-z]+:[A-Za-z0-9._-]+$/;
export const CLAIM_REF_MESSAGE = 'ref must be a claim-store reference such as local:<sha256>';
export const SHA256_HEX = /^[0-9a-f]{64}$/;
export const SHA256_HEX_MESSAGE = 'sha256 must be 64 lowercase hex characters';
export const EMPTY_CONTENT_MESSAGE = 'the stored content is empty';
