import {
  type AchFollowupInput,
  achFollowupWorkflowId,
  type AchFollowupWorkflow,
  type AchResult,
  type AchState,
  achStateQuery,
  submitAchFormUpdate,
} from './messages.js';
import { achFollowupInput, achForm } from './messages.schema.js';
import { claimPlaceholder, ProcessClient, type WithClaims, type WithTiming } from '../lib/process-client.js';

/** ACH authorization follow-up for one payment method, keyed `ach-followup:<paymentMethodId>`. */
export class AchFollowupClient extends ProcessClient<AchState, AchResult, WithClaims & WithTiming> {
  protected readonly contract = {
    workflowType: 'achFollowupWorkflow',
    workflowId: achFollowupWorkflowId,
    stateQuery: achStateQuery,
  };

  /** Starts following the method, or attaches to the follow-up already running for it. */
  async start(input: Omit<AchFollowupInput, 'timing'>): Promise<string> {
    const args = this.check(achFollowupInput, { ...input, timing: this.opts.timing ?? {} });
    // A finished follow-up may be followed by a new round: the provider can ask for a form again.
    return this.startOrAttach<AchFollowupWorkflow>(args.paymentMethodId, [args], { reuse: 'ALLOW_DUPLICATE' });
  }

  /** The end user's form (a photo or scan): stored by reference, then handed to the process. */
  async submitForm(paymentMethodId: string, file: { bytes: Uint8Array; contentType: string }): Promise<AchState> {
    this.check(achForm, claimPlaceholder(file.bytes.byteLength, file.contentType));
    const ref = await this.opts.claims.put(file.bytes, file.contentType, { subject: paymentMethodId });
    // A form the update refuses is deleted at once (ProcessClient.update).
    return this.update(achFollowupWorkflowId(paymentMethodId), submitAchFormUpdate, ref, {
      store: this.opts.claims,
      refs: [ref],
    });
  }
}
