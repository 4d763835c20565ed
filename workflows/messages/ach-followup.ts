import { defineQuery, defineUpdate } from '@temporalio/workflow';
import { z } from 'zod';
import { accountId, paymentMethodId } from '../../src/provider/schemas/common.js';
import { documentMimeTypes, MAX_DOCUMENT_BYTES } from '../../src/provider/schemas/document.js';
import { claimRef, type ClaimRef, timing } from './common.js';

// ACH authorization follow-up (spec 3.1): messages shared by the workflow and its client.

export const achFollowupWorkflowId = (paymentMethodId: string) => `ach-followup:${paymentMethodId}`;

export const achFollowupInput = z.object({
  paymentMethodId,
  /** The account the method belongs to: its individualSourceOfFunds follows the method. */
  accountId,
  timing: timing.default(timing.parse({})),
});
export type AchFollowupInput = z.input<typeof achFollowupInput>;

/** The form: a photo (or scan) as described at the end of spec 3.2, kept in the claim store. */
export const achForm = claimRef.extend({
  contentType: z.enum(documentMimeTypes, { message: `the form must be one of ${documentMimeTypes.join(', ')}` }),
  size: z.number().int().positive().max(MAX_DOCUMENT_BYTES, 'the form is larger than 7.75 MB'),
});

export type AchStage = 'CHECKING' | 'WAITING_FOR_FORM' | 'SUBMITTING' | 'UNDER_REVIEW' | 'DONE';
export type AchOutcome = 'APPROVED' | 'ACTIVE' | 'REJECTED' | 'EXPIRED';
export interface SourceOfFunds {
  status: 'OPEN' | 'PENDING' | 'APPROVED';
  note: string | null;
}

export interface AchState {
  paymentMethodId: string;
  stage: AchStage;
  paymentMethodStatus: string | null;
  /** The account's individualSourceOfFunds while the method is it, and how it moved. */
  sourceOfFunds: SourceOfFunds | null;
  sourceOfFundsHistory: SourceOfFunds[];
  formsSubmitted: number;
  reminders: number;
  outcome: AchOutcome | null;
}

export interface AchResult {
  outcome: AchOutcome;
  paymentMethodId: string;
  sourceOfFunds: SourceOfFunds | null;
  rejectionMessage: string | null;
}

export const submitAchFormUpdate = defineUpdate<AchState, [ClaimRef]>('submitAchForm');
export const achStateQuery = defineQuery<AchState>('state');

/** The workflow's signature, for clients that start it by name with checked arguments. */
export type AchFollowupWorkflow = (input: AchFollowupInput) => Promise<AchResult>;
