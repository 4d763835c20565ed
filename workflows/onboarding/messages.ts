import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { z } from 'zod';
import type {
  onboardingInput,
  onboardingLink,
  onboardingLinkRequest,
  onboardingOutcome,
  onboardingResult,
  onboardingStage,
  onboardingState,
  userStatus,
} from './messages.schema.js';
export * from './contract.js';

// Onboarding for higher limits (docs/provider-contract.md §2.7, §2.8, §4.5 to 4.7, 8): its messages.

export type OnboardingInput = z.input<typeof onboardingInput>;

/** docs/provider-contract.md §8's higher limits, which the limits calculation must show once the user is approved. */
export { higherLimitsFor } from '../../src/provider/limits.js';

export type OnboardingLinkRequest = z.infer<typeof onboardingLinkRequest>;

export type OnboardingStage = z.infer<typeof onboardingStage>;
export type OnboardingOutcome = z.infer<typeof onboardingOutcome>;
export type UserStatus = z.infer<typeof userStatus>;
export type OnboardingState = z.output<typeof onboardingState>;
export type OnboardingResult = z.output<typeof onboardingResult>;
export type OnboardingLink = z.output<typeof onboardingLink>;

export const onboardingLinkUpdate = defineUpdate<OnboardingLink, [OnboardingLinkRequest]>('onboardingLink');
export const onboardingStateQuery = defineQuery<OnboardingState>('state');

/** The workflow's signature, for clients that start it by name with checked arguments. */
export type OnboardingWorkflow = (input: OnboardingInput) => Promise<OnboardingResult>;
