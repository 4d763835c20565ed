import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { z } from 'zod';
import type { achFollowupInput, achOutcome, achResult, achStage, achState, sourceOfFunds } from './messages.schema.js';
import type { ClaimRef } from '../lib/messages.js';
export * from './contract.js';

// ACH authorization follow-up (docs/provider-contract.md §3.1): messages of the workflow and its client.

export type AchFollowupInput = z.input<typeof achFollowupInput>;

export type AchStage = z.infer<typeof achStage>;
export type AchOutcome = z.infer<typeof achOutcome>;
export type SourceOfFunds = z.output<typeof sourceOfFunds>;
export type AchState = z.output<typeof achState>;
export type AchResult = z.output<typeof achResult>;

export const submitAchFormUpdate = defineUpdate<AchState, [ClaimRef]>('submitAchForm');
export const achStateQuery = defineQuery<AchState>('state');

/** The workflow's signature, for clients that start it by name with checked arguments. */
export type AchFollowupWorkflow = (input: AchFollowupInput) => Promise<AchResult>;
