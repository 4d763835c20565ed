import { defineQuery } from '@temporalio/workflow';
import { z } from 'zod';
import { countryCode } from '../../src/provider/schemas/account.js';
import { claimRef } from './common.js';

// Account provisioning for client-held tokens (spec 5.3): messages shared with the client.

export const provisioningWorkflowId = (clientRef: string) => `provision:${clientRef}`;

export const provisioningInput = z.object({
  /** The backend's reference for the client (device, app install) whose token this is. */
  clientRef: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,100}$/, 'clientRef is 1 to 100 letters, digits, dot, dash or underscore'),
  /** The client's secret, kept in the claim store: a secret never enters workflow history. */
  secret: claimRef,
  country: countryCode,
  /** How long one provider call may take before it is tried again (a crashed worker's call too). */
  activityTimeoutMs: z.number().int().min(1_000).default(60_000),
});
export type ProvisioningInput = z.input<typeof provisioningInput>;

export type ProvisioningStage = 'REGISTERING' | 'CREATING_ACCOUNT' | 'DONE';
/** CREATED: the token's account exists. ALREADY_BOUND: the token had created an account before (spec 7.1). */
export type ProvisioningOutcome = 'CREATED' | 'ALREADY_BOUND';

export interface ProvisioningState {
  clientRef: string;
  stage: ProvisioningStage;
  apiKey: string | null;
  accountId: string | null;
  outcome: ProvisioningOutcome | null;
  error: string | null;
}

export interface ProvisioningResult {
  outcome: ProvisioningOutcome;
  /** The API key the provider returned for the secret: with the secret, it signs requests (spec 5.3 step 4). */
  apiKey: string;
  accountId: string | null;
  error: string | null;
}

export const provisioningStateQuery = defineQuery<ProvisioningState>('state');

/** The workflow's signature, for clients that start it by name with checked arguments. */
export type ProvisioningWorkflow = (input: ProvisioningInput) => Promise<ProvisioningResult>;
