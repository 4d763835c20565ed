import { z } from 'zod';
import { clientSecret } from '../../src/provider/schemas/session.js';
import {
  type ProvisioningInput,
  type ProvisioningResult,
  type ProvisioningState,
  provisioningStateQuery,
  provisioningWorkflowId,
  type ProvisioningWorkflow,
} from './messages.js';
import { provisioningInput } from './messages.schema.js';
import { ProcessClient, type WithClaims } from '../lib/process-client.js';

/** Provisions the account of a client-held token (docs/provider-contract.md §5.3), keyed `provision:<clientRef>`. */
export class ProvisioningClient extends ProcessClient<
  ProvisioningState,
  ProvisioningResult,
  WithClaims & { activityTimeoutMs?: number }
> {
  protected readonly contract = {
    workflowType: 'provisioningWorkflow',
    workflowId: provisioningWorkflowId,
    stateQuery: provisioningStateQuery,
  };

  /** Starts provisioning (or attaches: one per clientRef); the secret goes by claim reference. */
  async start(input: { clientRef: string; country: string; secret: string }): Promise<string> {
    const { secret } = this.check(z.object({ secret: clientSecret }), { secret: input.secret });
    this.check(provisioningInput.omit({ secret: true }), {
      clientRef: input.clientRef,
      country: input.country,
      activityTimeoutMs: this.opts.activityTimeoutMs,
    });
    const ref = await this.opts.claims.put(Buffer.from(secret, 'utf8'), 'text/plain', { subject: input.clientRef });
    const args: ProvisioningInput = {
      clientRef: input.clientRef,
      country: input.country,
      secret: ref,
      ...(this.opts.activityTimeoutMs ? { activityTimeoutMs: this.opts.activityTimeoutMs } : {}),
    };
    // One account per client: a later start answers with the first process's result.
    return this.startOrAttach<ProvisioningWorkflow>(input.clientRef, [args], {
      reuse: 'REJECT_DUPLICATE',
      attachToFinished: true,
    });
  }
}
