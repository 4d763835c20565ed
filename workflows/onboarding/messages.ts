import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { z } from 'zod';
import type { Limits } from '../../src/provider/schemas/limits.js';
import type { onboardingInput, onboardingLinkRequest } from '../../src/messages/onboarding.schema.js';

// Onboarding for higher card-purchase limits (docs/provider-contract.md §2.7, §2.8, §4.5 to 4.7, 8): messages shared by
// the workflow and its client (their zod schemas, for the client, in ./onboarding.schema.ts).

export const USER_REF_MESSAGE = 'userRef must be 1 to 100 letters, digits, _ . or -';

export const onboardingWorkflowId = (ref: string) => `onboarding:${ref}`;

export type OnboardingInput = z.input<typeof onboardingInput>;

/** docs/provider-contract.md §8's higher limits, which the limits calculation must show once the user is approved. */
export { higherLimitsFor } from '../../src/provider/limits.js';

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
