import {
  DOCUMENT_TYPE,
  DOCUMENT_TYPE_MESSAGE,
  documentMimeTypes,
  documentSubTypes,
  MAX_DOCUMENT_BYTES,
} from '../../src/provider/documents.js';
import {
  FIELD_ID,
  FIELD_ID_MESSAGE,
  MAX_ATTEMPTS_PER_FIELD,
  MAX_VALUE_BYTES,
  VALUE_CONTENT_TYPE,
  VALUE_CONTENT_TYPE_MESSAGE,
  VALUE_NOT_KEYED_MESSAGE,
} from './contract.js';
import { int, literal, object, oneOf, optional, record, string, withDefault } from '../lib/input-check.js';
import { claimRefFields, id, timing } from '../lib/shared-checks.js';

// What KYC checks on its input, values and documents: their one definition (zod: ./messages.schema.ts).

export const checkKycInput = object({
  accountId: id('AC', 'an account id'),
  timing,
  /** Submissions per profile field in one round before support must take over. */
  maxAttemptsPerField: withDefault(int({ min: 1, max: MAX_ATTEMPTS_PER_FIELD.max }), MAX_ATTEMPTS_PER_FIELD.default),
  /**
   * Submissions per field made by earlier rounds, where the numbering of this round continues.
   * Clients no longer send it (keys carry the run chain's id, see ./workflow.ts); accepted so that
   * starts by older clients stay valid.
   */
  priorSubmissions: withDefault(record(int({ min: 0 })), {}),
});

const fieldId = string({ pattern: FIELD_ID, message: FIELD_ID_MESSAGE });

/** A personal value (an SSN...) kept in the claim store as text by putValue. */
export const checkValueRef = object({
  ...claimRefFields,
  contentType: string({ pattern: VALUE_CONTENT_TYPE, message: VALUE_CONTENT_TYPE_MESSAGE }),
  // A plain SHA-256 of a nine-digit SSN could be reversed from history: only keyed digests.
  keyed: literal(true, VALUE_NOT_KEYED_MESSAGE),
  size: int({ min: 1, max: MAX_VALUE_BYTES, tooSmall: 'the value is empty', tooBig: 'a value is at most 1 KB' }),
});

/** A file for a DOCUMENT field, kept in the claim store (docs/provider-contract.md §OP-4). */
export const checkDocumentRef = object({
  ...claimRefFields,
  contentType: oneOf(documentMimeTypes, `the document must be one of ${documentMimeTypes.join(', ')}`),
  size: int({
    min: 1,
    max: MAX_DOCUMENT_BYTES,
    tooSmall: 'the document is empty',
    tooBig: 'the document is larger than 7.75 MB',
  }),
});

export const checkValueSubmission = object({ fieldId, value: checkValueRef });

export const checkDocumentSubmission = object({
  fieldId,
  document: checkDocumentRef,
  documentType: optional(string({ pattern: DOCUMENT_TYPE, message: DOCUMENT_TYPE_MESSAGE })),
  documentSubType: optional(oneOf(documentSubTypes, 'documentSubType must be FRONT or BACK')),
});
