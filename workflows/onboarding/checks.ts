import { USER_REF_MESSAGE } from './contract.js';
import { object } from '../lib/input-check.js';
import { businessKey, countryCode, timing } from '../lib/shared-checks.js';

// What onboarding checks on its input and on a request for the link: the one definition of these
// messages (./messages.schema.ts builds their zod schemas from them).

/** The backend's own reference for its user: a business key, never personal data. */
export const checkUserRef = businessKey(USER_REF_MESSAGE);

export const checkOnboardingInput = object({
  userRef: checkUserRef,
  /** The user's country decides which higher limits apply (docs/provider-contract.md §8). */
  country: countryCode,
  timing,
});

/**
 * A request for the onboarding link. It names the user it is for, so that a link is never handed
 * to the wrong process by a backend that mixed up its references.
 */
export const checkOnboardingLinkRequest = object({ userRef: checkUserRef });
