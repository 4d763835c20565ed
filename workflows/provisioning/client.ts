import type { Client } from '@temporalio/client';
import { z } from 'zod';
import type { ClaimStore } from '../../src/claims/store.js';
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
import { ProcessClient, type ProcessClientOptions } from '../lib/process-client.js';

/** Provisions the account of a client-held token (docs/provider-contract.md §5.3), keyed `provision:<clientRef>`. */
export class ProvisioningClient extends ProcessClient {
  private readonly claims: ClaimStore;
  private readonly activityTimeoutMs: number | undefined;

  constructor(client: Client, opts: ProcessClientOptions & { claims: ClaimStore; activityTimeoutMs?: number }) {
    super(client, opts);
    this.claims = opts.claims;
    this.activityTimeoutMs = opts.activityTimeoutMs;
  }

  /**
   * Starts provisioning (or attaches to it: one per clientRef) with the client's secret, which is
   * kept in the claim store and handed over by reference.
   */
  async start(input: { clientRef: string; country: string; secret: string }): Promise<string> {
    const { secret } = this.check(z.object({ secret: clientSecret }), { secret: input.secret });
    this.check(provisioningInput.omit({ secret: true }), {
      clientRef: input.clientRef,
      country: input.country,
      activityTimeoutMs: this.activityTimeoutMs,
    });
    const ref = await this.claims.put(Buffer.from(secret, 'utf8'), 'text/plain', { subject: input.clientRef });
    const args: ProvisioningInput = {
      clientRef: input.clientRef,
      country: input.country,
      secret: ref,
      ...(this.activityTimeoutMs ? { activityTimeoutMs: this.activityTimeoutMs } : {}),
    };
    const id = provisioningWorkflowId(input.clientRef);
    // One account per client: a later start answers with the first process's result.
    await this.startOrAttach<ProvisioningWorkflow>({
      workflowType: 'provisioningWorkflow',
      workflowId: id,
      args: [args],
      reuse: 'REJECT_DUPLICATE',
      attachToFinished: true,
    });
    return id;
  }

  state(clientRef: string): Promise<ProvisioningState> {
    return this.query(provisioningWorkflowId(clientRef), provisioningStateQuery);
  }

  result(clientRef: string): Promise<ProvisioningResult> {
    return this.resultOf(provisioningWorkflowId(clientRef));
  }
}
