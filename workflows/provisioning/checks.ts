import type { z } from 'zod';
import { CLIENT_REF_MESSAGE, DEFAULT_ACTIVITY_TIMEOUT_MS } from './messages.js';
import type { provisioningInput } from './messages.schema.js';
import { type Check, int, object, withDefault } from '../lib/input-check.js';
import { businessKey, claimRef, countryCode } from '../lib/shared-checks.js';

// What provisioning checks on its input (workflows/provisioning/messages.schema.ts in zod).

export const checkProvisioningInput: Check<z.output<typeof provisioningInput>> = object({
  clientRef: businessKey(CLIENT_REF_MESSAGE),
  secret: claimRef,
  country: countryCode,
  activityTimeoutMs: withDefault(int({ min: 1_000 }), () => DEFAULT_ACTIVITY_TIMEOUT_MS),
});
