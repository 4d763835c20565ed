import { defineQuery, defineUpdate } from '@temporalio/workflow';
import { z } from 'zod';
import { countryCode } from '../../src/provider/schemas/account.js';
import type { Limits } from '../../src/provider/schemas/limits.js';
import { timing } from './common.js';

// Onboarding for higher card-purchase limits (spec 2.7, 2.8, 4.5 to 4.7, 8): messages shared by
// the workflow and its client.

/** The backend's own reference for its user: a business key, never personal data. */
export const userRef = z
  .string()
  .regex(/^[A-Za-z0-9_.-]{1,100}$/, 'userRef must be 1 to 100 letters, digits, _ . or -');

export const onboardingWorkflowId = (ref: string) => `onboarding:${ref}`;

export const onboardingInput = z.object({
  userRef,
  /** The user's country decides which higher limits apply (spec 8). */
  country: countryCode,
  timing: timing.default(timing.parse({})),
});
export type OnboardingInput = z.input<typeof onboardingInput>;

/** Spec 8's higher limits, which the limits calculation must show once the user is approved. */
export { higherLimitsFor } from '../../src/provider/limits.js';

/**
 * A request for the onboarding link. It names the user it is for, so that a link is never handed
 * to the wrong process by a backend that mixed up its references.
 */
export const onboardingLinkRequest = z.object({ userRef });
export type OnboardingLinkRequest = z.infer<typeof onboardingLinkRequest>;

export type OnboardingStage = 'CREATING_USER' | 'WAITING_FOR_USER' | 'UNDER_REVIEW' | 'CONFIRMING_LIMITS' | 'DONE';
export type OnboardingOutcome = 'APPROVED' | 'LIMITS_NOT_RAISED' | 'CLOSED' | 'EXPIRED';
export type UserStatus = 'OPEN' | 'PENDING' | 'APPROVED' | 'CLOSED';

export interface OnboardingState {
  userRef: string;
  stage: OnboardingStage;
  userId: string | null;
  userStatus: UserStatus | null;
  /** How many onboarding links were handed out: each request fetches a new one. */
  linksHandedOut: number;
  reminders: number;
  limits: Limits | null;
  outcome: OnboardingOutcome | null;
}

export interface OnboardingResult {
  outcome: OnboardingOutcome;
  userId: string;
  /** The limits calculation once the user is approved; null otherwise. */
  limits: Limits | null;
}

export const onboardingLinkUpdate = defineUpdate<{ url: string }, [OnboardingLinkRequest]>('onboardingLink');
export const onboardingStateQuery = defineQuery<OnboardingState>('state');

/** The workflow's signature, for clients that start it by name with checked arguments. */
export type OnboardingWorkflow = (input: OnboardingInput) => Promise<OnboardingResult>;
