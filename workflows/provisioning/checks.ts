import { CLIENT_REF_MESSAGE, DEFAULT_ACTIVITY_TIMEOUT_MS } from './contract.js';
import { int, object, withDefault } from '../lib/input-check.js';
import { businessKey, claimRef, countryCode } from '../lib/shared-checks.js';

// What provisioning checks on its input: its one definition (zod: ./messages.schema.ts).

/** The backend's reference for the client (device, app install) whose token this is. */
export const checkClientRef = businessKey(CLIENT_REF_MESSAGE);

export const checkProvisioningInput = object({
  clientRef: checkClientRef,
  /** The client's secret, kept in the claim store: a secret never enters workflow history. */
  secret: claimRef,
  country: countryCode,
  /** How long one provider call may take before it is tried again (a crashed worker's call too). */
  activityTimeoutMs: withDefault(int({ min: 1_000 }), DEFAULT_ACTIVITY_TIMEOUT_MS),
});
