import type { z } from 'zod';
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
  MAX_VALUE_BYTES,
  VALUE_CONTENT_TYPE,
  VALUE_CONTENT_TYPE_MESSAGE,
  VALUE_NOT_KEYED_MESSAGE,
} from './messages.js';
import type { documentSubmission, kycInput, valueSubmission } from './messages.schema.js';
import { type Check, int, literal, object, oneOf, optional, record, string, withDefault } from '../lib/input-check.js';
import { claimRefFields, id, timing } from '../lib/shared-checks.js';

// What KYC resubmission checks on its input and on the values and documents handed in
// (workflows/kyc/messages.schema.ts in zod).

export const checkKycInput: Check<z.output<typeof kycInput>> = object({
  accountId: id('AC', 'an account id'),
  timing,
  maxAttemptsPerField: withDefault(int({ min: 1, max: 50 }), () => 5),
  priorSubmissions: withDefault(record(int({ min: 0 })), () => ({})),
});

const fieldId = string(FIELD_ID, FIELD_ID_MESSAGE);

export const checkValueSubmission: Check<z.output<typeof valueSubmission>> = object({
  fieldId,
  value: object({
    ...claimRefFields,
    contentType: string(VALUE_CONTENT_TYPE, VALUE_CONTENT_TYPE_MESSAGE),
    keyed: literal(true, VALUE_NOT_KEYED_MESSAGE),
    size: int({ min: 1, max: MAX_VALUE_BYTES, tooSmall: 'the value is empty', tooBig: 'a value is at most 1 KB' }),
  }),
});

export const checkDocumentSubmission: Check<z.output<typeof documentSubmission>> = object({
  fieldId,
  document: object({
    ...claimRefFields,
    contentType: oneOf(documentMimeTypes, `the document must be one of ${documentMimeTypes.join(', ')}`),
    size: int({
      min: 1,
      max: MAX_DOCUMENT_BYTES,
      tooSmall: 'the document is empty',
      tooBig: 'the document is larger than 7.75 MB',
    }),
  }),
  documentType: optional(string(DOCUMENT_TYPE, DOCUMENT_TYPE_MESSAGE)),
  documentSubType: optional(oneOf(documentSubTypes, 'documentSubType must be FRONT or BACK')),
});
