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
} from './messages.schema.js';

export type { KycReason, Provide } from './reasons.js';
export * from './contract.js';

// KYC resubmission (docs/provider-contract.md §3.2): messages of the workflow and its client.

export type KycInput = z.input<typeof kycInput>;
export type ValueSubmission = z.infer<typeof valueSubmission>;
export type DocumentSubmission = z.infer<typeof documentSubmission>;

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
