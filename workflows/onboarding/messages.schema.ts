import { z } from 'zod';
import { userId } from '../../src/provider/schemas/common.js';
import { checkOnboardingInput, checkOnboardingLinkRequest, checkUserRef } from './checks.js';
import { limitsAnswer } from '../lib/messages.schema.js';
import { zodFrom } from '../lib/zod-from-check.schema.js';

// Onboarding's messages as zod schemas, for its client; what the workflow checks is built from ./checks.ts.

export const userRef = zodFrom(checkUserRef);
export const onboardingInput = zodFrom(checkOnboardingInput);
/** A request for the onboarding link, naming the user it is for. */
export const onboardingLinkRequest = zodFrom(checkOnboardingLinkRequest);

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
