import { USER_REF_MESSAGE } from './contract.js';
import { object } from '../lib/input-check.js';
import { businessKey, countryCode, timing } from '../lib/shared-checks.js';

// What onboarding checks on its input and link requests: their one definition (zod: ./messages.schema.ts).

/** The backend's own reference for its user: a business key, never personal data. */
export const checkUserRef = businessKey(USER_REF_MESSAGE);

export const checkOnboardingInput = object({
  userRef: checkUserRef,
  /** The user's country decides which higher limits apply (docs/provider-contract.md §8). */
  country: countryCode,
  timing,
});

/** A link request names its user, so that a backend that mixed up references never gets another's link. */
export const checkOnboardingLinkRequest = object({ userRef: checkUserRef });
