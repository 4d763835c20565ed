import { z } from 'zod';
import { accountId } from '../../src/provider/schemas/common.js';
import { accountStatus, profileFieldStatus } from '../../src/provider/schemas/account.js';
import {
  checkDocumentRef,
  checkDocumentSubmission,
  checkKycInput,
  checkValueRef,
  checkValueSubmission,
} from './checks.js';
import { zodFrom } from '../lib/zod-from-check.schema.js';

// KYC resubmission's messages as zod schemas, for its client; what the workflow checks is built from ./checks.ts.

export const kycInput = zodFrom(checkKycInput);
export const valueRef = zodFrom(checkValueRef);
export const documentRef = zodFrom(checkDocumentRef);
export const valueSubmission = zodFrom(checkValueSubmission);
export const documentSubmission = zodFrom(checkDocumentSubmission);

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
