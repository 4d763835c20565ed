import {
  type OnboardingInput,
  onboardingLinkUpdate,
  type OnboardingResult,
  type OnboardingState,
  onboardingStateQuery,
  onboardingWorkflowId,
  type OnboardingWorkflow,
} from './messages.js';
import { onboardingInput, onboardingLinkRequest } from './messages.schema.js';
import { ProcessClient, type WithTiming } from '../lib/process-client.js';

/** Onboarding for higher limits of one backend user, keyed `onboarding:<userRef>`. */
export class OnboardingClient extends ProcessClient<OnboardingState, OnboardingResult, WithTiming> {
  protected readonly contract = {
    workflowType: 'onboardingWorkflow',
    workflowId: onboardingWorkflowId,
    stateQuery: onboardingStateQuery,
  };

  /** Starts onboarding, or attaches to the one already under this reference (one per user, ever). */
  async start(input: Omit<OnboardingInput, 'timing'>): Promise<string> {
    const args = this.check(onboardingInput, { ...input, timing: this.opts.timing ?? {} });
    // One onboarding per user reference; only a failed attempt (say, the scope not yet enabled) may run again.
    return this.startOrAttach<OnboardingWorkflow>(args.userRef, [args], { reuse: 'ALLOW_DUPLICATE_FAILED_ONLY' });
  }

  /** A fresh onboarding link for the end user; it lives 30 minutes, so ask again rather than keep it. */
  async onboardingLink(userRef: string): Promise<string> {
    const req = this.check(onboardingLinkRequest, { userRef });
    const { url } = await this.update(onboardingWorkflowId(req.userRef), onboardingLinkUpdate, req);
    return url;
  }
}
