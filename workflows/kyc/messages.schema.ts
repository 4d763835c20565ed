import { z } from 'zod';
import { MAX_DOCUMENT_BYTES } from '../../src/provider/documents.js';
import { accountId } from '../../src/provider/schemas/common.js';
import { accountStatus, profileFieldStatus } from '../../src/provider/schemas/account.js';
import { documentMimeTypes, documentQuery } from '../../src/provider/schemas/document.js';
import { claimRef, timing } from '../lib/messages.schema.js';
import {
  FIELD_ID,
  FIELD_ID_MESSAGE,
  MAX_VALUE_BYTES,
  VALUE_CONTENT_TYPE,
  VALUE_CONTENT_TYPE_MESSAGE,
  VALUE_NOT_KEYED_MESSAGE,
} from './contract.js';

// KYC resubmission's messages as zod schemas, for its client; the workflow checks the same with
// workflows/kyc/checks.ts (see ./messages.schema.ts).

export const kycInput = z.object({
  accountId,
  timing: timing.default(timing.parse({})),
  /** Submissions per profile field in one round before support must take over. */
  maxAttemptsPerField: z.number().int().min(1).max(50).default(5),
  /**
   * Submissions per field made by earlier rounds, where the numbering of this round continues.
   * Clients no longer send it (keys carry the run chain's id, see workflows/kyc/workflow.ts); accepted so
   * that starts by older clients stay valid.
   */
  priorSubmissions: z.record(z.string(), z.number().int().min(0)).default({}),
});

const fieldId = z.string().regex(FIELD_ID, FIELD_ID_MESSAGE);

/** A personal value (an SSN...) kept in the claim store as text by putValue. */
export const valueRef = claimRef.extend({
  contentType: z.string().regex(VALUE_CONTENT_TYPE, VALUE_CONTENT_TYPE_MESSAGE),
  // A plain SHA-256 of a nine-digit SSN could be reversed from history: only keyed digests.
  keyed: z.literal(true, { message: VALUE_NOT_KEYED_MESSAGE }),
  size: z.number().int().positive('the value is empty').max(MAX_VALUE_BYTES, 'a value is at most 1 KB'),
});

/** A file for a DOCUMENT field, kept in the claim store (docs/provider-contract.md §OP-4). */
export const documentRef = claimRef.extend({
  contentType: z.enum(documentMimeTypes, { message: `the document must be one of ${documentMimeTypes.join(', ')}` }),
  size: z
    .number()
    .int()
    .positive('the document is empty')
    .max(MAX_DOCUMENT_BYTES, 'the document is larger than 7.75 MB'),
});

export const valueSubmission = z.object({ fieldId, value: valueRef });

export const documentSubmission = z.object({
  fieldId,
  document: documentRef,
  documentType: documentQuery.shape.documentType,
  documentSubType: documentQuery.shape.documentSubType,
});

// What the process answers: its state (query), a field (the submit updates) and its result.

export const kycStage = z.enum(['CHECKING', 'WAITING_FOR_END_USER', 'SUBMITTING', 'UNDER_REVIEW', 'DONE']);
/** CLOSED: the provider closed the account; nothing is left to resubmit. */
export const kycOutcome = z.enum(['APPROVED', 'ATTEMPTS_EXHAUSTED', 'EXPIRED', 'CLOSED']);

/** Why an OPEN field needs the end user (workflows/kyc/reasons.ts). */
export const kycReason = z.object({
  /** A REVIEWER_NOTES key for a known note; `missing` or `reviewer-note` otherwise. */
  code: z.string(),
  /** For the end user: what to do, not what went wrong. */
  message: z.string(),
  provide: z.enum(['value', 'document']),
});

/** A profile field as support sees it: ids, status and notes, never the value. */
export const kycField = z.object({
  fieldId: z.string(),
  fieldType: z.string(),
  status: profileFieldStatus,
  note: z.string().nullable(),
  /** While OPEN: what the end user must do about the note. */
  reason: kycReason.nullable(),
  /** Submissions in this round. */
  attempts: z.number().int().min(0),
  /** True while the process takes input for this field. */
  awaiting: z.boolean(),
  /** The field came back OPEN after its last allowed attempt. */
  exhausted: z.boolean(),
  /** Why the last submission did not reach the provider (an error type, never the value). */
  error: z.string().nullable(),
});

/** Submissions per field in this round (after priorSubmissions, when given): the last attempt number of each key. */
const submissions = z.record(z.string(), z.number().int().min(0));

export const kycState = z.object({
  accountId,
  stage: kycStage,
  accountStatus: accountStatus.nullable(),
  fields: z.array(kycField),
  maxAttemptsPerField: z.number().int().min(1),
  reminders: z.number().int().min(0),
  /** The end user's time is up; the process still waits for reviews already under way. */
  expired: z.boolean(),
  outcome: kycOutcome.nullable(),
  submissions,
});

export const kycResult = z.object({
  outcome: kycOutcome,
  accountId,
  fields: z.array(kycField),
  submissions,
});
