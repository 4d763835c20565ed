import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { z } from 'zod';
import type { achFollowupInput } from '../../src/messages/ach-followup.schema.js';
import type { ClaimRef } from '../lib/messages.js';

// ACH authorization follow-up (docs/provider-contract.md §3.1): messages shared by the workflow and its client (their zod
// schemas, for the client, in ./ach-followup.schema.ts).

export const achFollowupWorkflowId = (paymentMethodId: string) => `ach-followup:${paymentMethodId}`;

export type AchFollowupInput = z.input<typeof achFollowupInput>;

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
