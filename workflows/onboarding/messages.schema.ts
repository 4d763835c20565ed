import { z } from 'zod';
import { countryCode, userId } from '../../src/provider/schemas/common.js';
import { limitsAnswer, timing } from '../lib/messages.schema.js';
import { USER_REF_MESSAGE } from './contract.js';

// Onboarding's messages as zod schemas, for its client; the workflow checks the same with
// workflows/onboarding/checks.ts (see ./messages.schema.ts).

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

// What the process answers: its state (query), a link (the onboardingLink update) and its result.

export const onboardingStage = z.enum([
  'CREATING_USER',
  'WAITING_FOR_USER',
  'UNDER_REVIEW',
  'CONFIRMING_LIMITS',
  'DONE',
]);
export const onboardingOutcome = z.enum(['APPROVED', 'LIMITS_NOT_RAISED', 'CLOSED', 'EXPIRED']);
export const userStatus = z.enum(['OPEN', 'PENDING', 'APPROVED', 'CLOSED']);

/** A new onboarding link for the end user: each request fetches one (it lives 30 minutes, docs/provider-contract.md §4.7). */
export const onboardingLink = z.object({ url: z.url() });

export const onboardingState = z.object({
  userRef,
  stage: onboardingStage,
  userId: userId.nullable(),
  userStatus: userStatus.nullable(),
  /** How many onboarding links were handed out: each request fetches a new one. */
  linksHandedOut: z.number().int().min(0),
  reminders: z.number().int().min(0),
  limits: limitsAnswer.nullable(),
  outcome: onboardingOutcome.nullable(),
});

export const onboardingResult = z.object({
  outcome: onboardingOutcome,
  userId,
  /** The limits calculation once the user is approved; null otherwise. */
  limits: limitsAnswer.nullable(),
});
