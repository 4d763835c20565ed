import { z } from 'zod';
import { countryCode } from '../provider/schemas/common.js';
import { timing } from './common.schema.js';
import { USER_REF_MESSAGE } from '../../workflows/onboarding/messages.js';

// Onboarding's messages as zod schemas, for its client; the workflow checks the same with
// workflows/onboarding/checks.ts (see ./common.schema.ts).

/** The backend's own reference for its user: a business key, never personal data. */
export const userRef = z.string().regex(/^[A-Za-z0-9_.-]{1,100}$/, USER_REF_MESSAGE);

export const onboardingInput = z.object({
  userRef,
  /** The user's country decides which higher limits apply (docs/provider-contract.md §8). */
  country: countryCode,
  timing: timing.default(timing.parse({})),
});

/**
 * A request for the onboarding link. It names the user it is for, so that a link is never handed
 * to the wrong process by a backend that mixed up its references.
 */
export const onboardingLinkRequest = z.object({ userRef });
