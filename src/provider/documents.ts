// docs/provider-contract.md §OP-4: the body is the raw file with its MIME type, at most 7.75 MB.
// No zod here: workflow code checks documents handed in against these.
export const MAX_DOCUMENT_BYTES = Math.floor(7.75 * 1024 * 1024);
export const documentMimeTypes = [
  'application/pdf',
  'image/jpeg',
  'image/png',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
] as const;
export type DocumentMimeType = (typeof documentMimeTypes)[number];

export const DOCUMENT_TYPE = /^[A-Z_]+$/;
export const DOCUMENT_TYPE_MESSAGE = 'documentType is an upper-case word such as GOVT_ID or PASSPORT';
export const documentSubTypes = ['FRONT', 'BACK'] as const;

/** Fields that accept documents (docs/provider-contract.md §OP-4). */
export const documentFieldIds = [
  'individualGovernmentId',
  'individualProofOfAddress',
  'individualAchAuthorizationForm',
] as const;
