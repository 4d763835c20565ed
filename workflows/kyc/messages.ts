import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { z } from 'zod';
import type { accountStatus, profileFieldStatus } from '../../src/provider/schemas/account.js';
import type { KycReason } from './reasons.js';
import type { documentSubmission, kycInput, valueSubmission } from '../../src/messages/kyc.schema.js';

export type { KycReason, Provide } from './reasons.js';

// KYC resubmission (docs/provider-contract.md §3.2): messages shared by the workflow and its client (their zod schemas,
// for the client, in ./kyc.schema.ts).

export const kycWorkflowId = (accountId: string) => `kyc:${accountId}`;

export type KycInput = z.input<typeof kycInput>;
export type ValueSubmission = z.infer<typeof valueSubmission>;
export type DocumentSubmission = z.infer<typeof documentSubmission>;

/** The longest a personal value kept as text may be. */
export const MAX_VALUE_BYTES = 1024;
export const FIELD_ID = /^[a-z][A-Za-z0-9]+$/;
export const FIELD_ID_MESSAGE = 'fieldId must be a profile field id such as individualSsn';
export const VALUE_CONTENT_TYPE = /^text\/plain\b/;
export const VALUE_CONTENT_TYPE_MESSAGE = 'a value is stored as text/plain (use putValue)';
export const VALUE_NOT_KEYED_MESSAGE = 'a personal value needs a keyed digest (store it with putValue)';

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
