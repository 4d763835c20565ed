import type { Client } from '@temporalio/client';
import type { ClaimStore } from '../../src/claims/store.js';
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
import type { TimingInput } from '../lib/messages.js';
import { ProcessClient, type ProcessClientOptions } from '../lib/process-client.js';

/** ACH authorization follow-up for one payment method, keyed `ach-followup:<paymentMethodId>`. */
export class AchFollowupClient extends ProcessClient {
  constructor(client: Client, opts: ProcessClientOptions & { claims: ClaimStore; timing?: TimingInput }) {
    super(client, opts);
    this.claims = opts.claims;
    this.timing = opts.timing ?? {};
  }
  private readonly claims: ClaimStore;
  private readonly timing: TimingInput;

  /** Starts following the method, or attaches to the follow-up already running for it. */
  async start(input: Omit<AchFollowupInput, 'timing'>): Promise<string> {
    const args = this.check(achFollowupInput, { ...input, timing: this.timing });
    const id = achFollowupWorkflowId(args.paymentMethodId);
    // A finished follow-up may be followed by a new round: the provider can ask for a form again.
    await this.startOrAttach<AchFollowupWorkflow>({
      workflowType: 'achFollowupWorkflow',
      workflowId: id,
      args: [args],
      reuse: 'ALLOW_DUPLICATE',
    });
    return id;
  }

  /** The end user's form (a photo or scan): stored by reference, then handed to the process. */
  async submitForm(paymentMethodId: string, file: { bytes: Uint8Array; contentType: string }): Promise<AchState> {
    this.check(achForm, {
      ref: 'local:x',
      sha256: '0'.repeat(64),
      size: file.bytes.byteLength,
      contentType: file.contentType,
    });
    const ref = await this.claims.put(file.bytes, file.contentType, { subject: paymentMethodId });
    // A form the update refuses is deleted at once (ProcessClient.update).
    return this.update(achFollowupWorkflowId(paymentMethodId), submitAchFormUpdate, ref, {
      store: this.claims,
      refs: [ref],
    });
  }

  state(paymentMethodId: string): Promise<AchState> {
    return this.query(achFollowupWorkflowId(paymentMethodId), achStateQuery);
  }

  result(paymentMethodId: string): Promise<AchResult> {
    return this.resultOf(achFollowupWorkflowId(paymentMethodId));
  }
}
