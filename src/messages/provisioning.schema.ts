import { z } from 'zod';
import { countryCode } from '../provider/schemas/common.js';
import { claimRef } from './common.schema.js';
import { CLIENT_REF_MESSAGE, DEFAULT_ACTIVITY_TIMEOUT_MS } from '../../workflows/provisioning/messages.js';

// Provisioning's input as a zod schema, for its client; the workflow checks the same with
// workflows/provisioning/checks.ts (see ./common.schema.ts).

export const provisioningInput = z.object({
  /** The backend's reference for the client (device, app install) whose token this is. */
  clientRef: z.string().regex(/^[A-Za-z0-9_.-]{1,100}$/, CLIENT_REF_MESSAGE),
  /** The client's secret, kept in the claim store: a secret never enters workflow history. */
  secret: claimRef,
  country: countryCode,
  /** How long one provider call may take before it is tried again (a crashed worker's call too). */
  activityTimeoutMs: z.number().int().min(1_000).default(DEFAULT_ACTIVITY_TIMEOUT_MS),
});
