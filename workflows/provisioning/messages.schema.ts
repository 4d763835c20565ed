import { z } from 'zod';
import { checkClientRef, checkProvisioningInput } from './checks.js';
import { zodFrom } from '../lib/zod-from-check.schema.js';

// Provisioning's messages as zod schemas, for its client; its input's is built from ./checks.ts.

const clientRef = zodFrom(checkClientRef);
export const provisioningInput = zodFrom(checkProvisioningInput);

// What the process answers: its state (query) and its result.

export const provisioningStage = z.enum(['REGISTERING', 'CREATING_ACCOUNT', 'DONE']);
/** CREATED: the token's account exists. ALREADY_BOUND: the token had created an account before (docs/provider-contract.md §7.1). */
export const provisioningOutcome = z.enum(['CREATED', 'ALREADY_BOUND']);

export const provisioningState = z.object({
  clientRef,
  stage: provisioningStage,
  apiKey: z.string().nullable(),
  accountId: z.string().nullable(),
  outcome: provisioningOutcome.nullable(),
  error: z.string().nullable(),
});

export const provisioningResult = z.object({
  outcome: provisioningOutcome,
  /** The API key the provider returned for the secret: with the secret, it signs requests (docs/provider-contract.md §5.3 step 4). */
  apiKey: z.string(),
  accountId: z.string().nullable(),
  error: z.string().nullable(),
});
