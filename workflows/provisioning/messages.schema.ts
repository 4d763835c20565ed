import { z } from 'zod';
import { countryCode } from '../../src/provider/schemas/common.js';
import { claimRef } from '../lib/messages.schema.js';
import { CLIENT_REF_MESSAGE, DEFAULT_ACTIVITY_TIMEOUT_MS } from './contract.js';

// Provisioning's input as a zod schema, for its client; the workflow checks the same with
// workflows/provisioning/checks.ts (see ./messages.schema.ts).

/** The backend's reference for the client (device, app install) whose token this is. */
const clientRef = z.string().regex(/^[A-Za-z0-9_.-]{1,100}$/, CLIENT_REF_MESSAGE);

export const provisioningInput = z.object({
  clientRef,
  /** The client's secret, kept in the claim store: a secret never enters workflow history. */
  secret: claimRef,
  country: countryCode,
  /** How long one provider call may take before it is tried again (a crashed worker's call too). */
  activityTimeoutMs: z.number().int().min(1_000).default(DEFAULT_ACTIVITY_TIMEOUT_MS),
});

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
