import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { z } from 'zod';
import type {
  documentSubmission,
  kycField,
  kycInput,
  kycOutcome,
  kycResult,
  kycStage,
  kycState,
  valueSubmission,
} from '../../src/messages/kyc.schema.js';

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

export type KycStage = z.infer<typeof kycStage>;
/** CLOSED: the provider closed the account; nothing is left to resubmit. */
export type KycOutcome = z.infer<typeof kycOutcome>;
/** A profile field as support sees it: ids, status and notes, never the value. */
export type KycField = z.output<typeof kycField>;
export type KycState = z.output<typeof kycState>;
export type KycResult = z.output<typeof kycResult>;

/** Answer once the value went to the provider: the field, then PENDING review. */
export const submitValueUpdate = defineUpdate<KycField, [ValueSubmission]>('submitValue');
export const submitDocumentUpdate = defineUpdate<KycField, [DocumentSubmission]>('submitDocument');
export const kycStateQuery = defineQuery<KycState>('state');

/** The workflow's signature, for clients that start it by name with checked arguments. */
export type KycWorkflow = (input: KycInput) => Promise<KycResult>;
