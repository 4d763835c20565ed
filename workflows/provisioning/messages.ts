import { defineQuery } from '@temporalio/workflow';
import type { z } from 'zod';
import type {
  provisioningInput,
  provisioningOutcome,
  provisioningResult,
  provisioningStage,
  provisioningState,
} from './messages.schema.js';
export * from './contract.js';

// Account provisioning for client-held tokens (docs/provider-contract.md §5.3): messages of workflow and client.

export type ProvisioningInput = z.input<typeof provisioningInput>;

export type ProvisioningStage = z.infer<typeof provisioningStage>;
/** CREATED: the token's account exists. ALREADY_BOUND: the token had created an account before (docs/provider-contract.md §7.1). */
export type ProvisioningOutcome = z.infer<typeof provisioningOutcome>;
export type ProvisioningState = z.output<typeof provisioningState>;
export type ProvisioningResult = z.output<typeof provisioningResult>;

export const provisioningStateQuery = defineQuery<ProvisioningState>('state');

/** The workflow's signature, for clients that start it by name with checked arguments. */
export type ProvisioningWorkflow = (input: ProvisioningInput) => Promise<ProvisioningResult>;
