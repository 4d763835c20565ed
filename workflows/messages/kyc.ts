import { defineQuery, defineUpdate } from '@temporalio/workflow';
import { z } from 'zod';
import type { accountStatus, profileFieldStatus } from '../../src/provider/schemas/account.js';
import { accountId } from '../../src/provider/schemas/common.js';
import { documentMimeTypes, documentQuery, MAX_DOCUMENT_BYTES } from '../../src/provider/schemas/document.js';
import type { KycReason } from '../lib/kyc-reasons.js';

export type { KycReason, Provide } from '../lib/kyc-reasons.js';
import { claimRef, timing } from './common.js';

// KYC resubmission (spec 3.2): messages shared by the workflow and its client.

export const kycWorkflowId = (accountId: string) => `kyc:${accountId}`;

export const kycInput = z.object({
  accountId,
  timing: timing.default(timing.parse({})),
  /** Submissions per profile field in one round before support must take over. */
  maxAttemptsPerField: z.number().int().min(1).max(50).default(5),
  /**
   * Submissions per field made by earlier rounds, where the numbering of this round continues.
   * Clients no longer send it (keys carry the run chain's id, see workflows/kyc.ts); accepted so
   * that starts by older clients stay valid.
   */
  priorSubmissions: z.record(z.string(), z.number().int().min(0)).default({}),
});
export type KycInput = z.input<typeof kycInput>;

const fieldId = z.string().regex(/^[a-z][A-Za-z0-9]+$/, 'fieldId must be a profile field id such as individualSsn');

/** A personal value (an SSN...) kept in the claim store as text by putValue. */
export const valueRef = claimRef.extend({
  contentType: z.string().regex(/^text\/plain\b/, 'a value is stored as text/plain (use putValue)'),
  // A plain SHA-256 of a nine-digit SSN could be reversed from history: only keyed digests.
  keyed: z.literal(true, { message: 'a personal value needs a keyed digest (store it with putValue)' }),
  size: z.number().int().positive('the value is empty').max(1024, 'a value is at most 1 KB'),
});

/** A file for a DOCUMENT field, kept in the claim store (open-points "Upload a document"). */
export const documentRef = claimRef.extend({
  contentType: z.enum(documentMimeTypes, { message: `the document must be one of ${documentMimeTypes.join(', ')}` }),
  size: z
    .number()
    .int()
    .positive('the document is empty')
    .max(MAX_DOCUMENT_BYTES, 'the document is larger than 7.75 MB'),
});

export const valueSubmission = z.object({ fieldId, value: valueRef });
export type ValueSubmission = z.infer<typeof valueSubmission>;

export const documentSubmission = z.object({
  fieldId,
  document: documentRef,
  documentType: documentQuery.shape.documentType,
  documentSubType: documentQuery.shape.documentSubType,
});
export type DocumentSubmission = z.infer<typeof documentSubmission>;

export type KycStage = 'CHECKING' | 'WAITING_FOR_END_USER' | 'SUBMITTING' | 'UNDER_REVIEW' | 'DONE';
/** CLOSED: the provider closed the account; nothing is left to resubmit. */
export type KycOutcome = 'APPROVED' | 'ATTEMPTS_EXHAUSTED' | 'EXPIRED' | 'CLOSED';

/** A profile field as support sees it: ids, status and notes, never the value. */
export interface KycField {
  fieldId: string;
  fieldType: string;
  status: z.infer<typeof profileFieldStatus>;
  note: string | null;
  /** While OPEN: what the end user must do about the note. */
  reason: KycReason | null;
  /** Submissions in this round. */
  attempts: number;
  /** True while the process takes input for this field. */
  awaiting: boolean;
  /** The field came back OPEN after its last allowed attempt. */
  exhausted: boolean;
  /** Why the last submission did not reach the provider (an error type, never the value). */
  error: string | null;
}

export interface KycState {
  accountId: string;
  stage: KycStage;
  accountStatus: z.infer<typeof accountStatus> | null;
  fields: KycField[];
  maxAttemptsPerField: number;
  reminders: number;
  /** The end user's time is up; the process still waits for reviews already under way. */
  expired: boolean;
  outcome: KycOutcome | null;
  /** Submissions per field in this round (after priorSubmissions, when given): the last attempt number of each key. */
  submissions: Record<string, number>;
}

export interface KycResult {
  outcome: KycOutcome;
  accountId: string;
  fields: KycField[];
  submissions: Record<string, number>;
}

/** Answer once the value went to the provider: the field, then PENDING review. */
export const submitValueUpdate = defineUpdate<KycField, [ValueSubmission]>('submitValue');
export const submitDocumentUpdate = defineUpdate<KycField, [DocumentSubmission]>('submitDocument');
export const kycStateQuery = defineQuery<KycState>('state');

/** The workflow's signature, for clients that start it by name with checked arguments. */
export type KycWorkflow = (input: KycInput) => Promise<KycResult>;
