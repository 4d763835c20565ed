import { defineQuery } from '@temporalio/workflow';
import type { z } from 'zod';
import type { provisioningInput } from '../../src/messages/provisioning.schema.js';

// Account provisioning for client-held tokens (docs/provider-contract.md §5.3): messages shared with the client (their zod
// schemas in ./provisioning.schema.ts).

export const provisioningWorkflowId = (clientRef: string) => `provision:${clientRef}`;

export const CLIENT_REF_MESSAGE = 'clientRef is 1 to 100 letters, digits, dot, dash or underscore';
export const DEFAULT_ACTIVITY_TIMEOUT_MS = 60_000;
export type ProvisioningInput = z.input<typeof provisioningInput>;

export type ProvisioningStage = 'REGISTERING' | 'CREATING_ACCOUNT' | 'DONE';
/** CREATED: the token's account exists. ALREADY_BOUND: the token had created an account before (docs/provider-contract.md §7.1). */
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
  /** The API key the provider returned for the secret: with the secret, it signs requests (docs/provider-contract.md §5.3 step 4). */
  apiKey: string;
  accountId: string | null;
  error: string | null;
}

export const provisioningStateQuery = defineQuery<ProvisioningState>('state');

/** The workflow's signature, for clients that start it by name with checked arguments. */
export type ProvisioningWorkflow = (input: ProvisioningInput) => Promise<ProvisioningResult>;
