import type { z } from 'zod';
import { USER_REF_MESSAGE } from './messages.js';
import type { onboardingInput, onboardingLinkRequest } from './messages.schema.js';
import { type Check, object } from '../lib/input-check.js';
import { businessKey, countryCode, timing } from '../lib/shared-checks.js';

// What onboarding checks on its input and on a request for the link (workflows/onboarding/messages.schema.ts in zod).

const userRef = businessKey(USER_REF_MESSAGE);

export const checkOnboardingInput: Check<z.output<typeof onboardingInput>> = object({
  userRef,
  country: countryCode,
  timing,
});

export const checkOnboardingLinkRequest: Check<z.output<typeof onboardingLinkRequest>> = object({ userRef });
