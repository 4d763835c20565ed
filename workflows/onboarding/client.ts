import type { Client } from '@temporalio/client';
import type { TimingInput } from '../lib/messages.js';
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
import { ProcessClient, type ProcessClientOptions } from '../lib/process-client.js';

/** Onboarding for higher limits of one backend user, keyed `onboarding:<userRef>`. */
export class OnboardingClient extends ProcessClient {
  constructor(client: Client, opts: ProcessClientOptions & { timing?: TimingInput }) {
    super(client, opts);
    this.timing = opts.timing ?? {};
  }
  private readonly timing: TimingInput;

  /** Starts onboarding, or attaches to the one already under this reference (one per user, ever). */
  async start(input: Omit<OnboardingInput, 'timing'>): Promise<string> {
    const args = this.check(onboardingInput, { ...input, timing: this.timing });
    const id = onboardingWorkflowId(args.userRef);
    // One onboarding per user reference; only a failed attempt (say, the scope not yet enabled) may run again.
    await this.startOrAttach<OnboardingWorkflow>({
      workflowType: 'onboardingWorkflow',
      workflowId: id,
      args: [args],
      reuse: 'ALLOW_DUPLICATE_FAILED_ONLY',
    });
    return id;
  }

  /** A fresh onboarding link for the end user; it lives 30 minutes, so ask again rather than keep it. */
  async onboardingLink(userRef: string): Promise<string> {
    const req = this.check(onboardingLinkRequest, { userRef });
    const { url } = await this.update(onboardingWorkflowId(req.userRef), onboardingLinkUpdate, req);
    return url;
  }

  state(userRef: string): Promise<OnboardingState> {
    return this.query(onboardingWorkflowId(userRef), onboardingStateQuery);
  }

  result(userRef: string): Promise<OnboardingResult> {
    return this.resultOf(onboardingWorkflowId(userRef));
  }
}
