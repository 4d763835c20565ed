import { z } from 'zod';
import type { ClaimRef } from '../../src/claims/ref.js';
import { putValue } from '../../src/claims/store.js';
import {
  type KycInput,
  type KycField,
  type KycResult,
  type KycState,
  kycStateQuery,
  kycWorkflowId,
  type KycWorkflow,
  submitDocumentUpdate,
  submitValueUpdate,
} from './messages.js';
import { documentSubmission, kycInput, valueSubmission } from './messages.schema.js';
import { claimPlaceholder, ProcessClient, type WithClaims, type WithTiming } from '../lib/process-client.js';

const valueText = z.object({ value: z.string().trim().min(1, 'a value is required') });

/**
 * What a start may add to the account id: every input field of ./checks.ts but those the client's
 * configuration gives, so that a new input field reaches the workflow with no change here.
 */
export type KycStartOptions = Omit<KycInput, 'accountId' | 'timing' | 'maxAttemptsPerField' | 'priorSubmissions'>;

/** KYC resubmission for one account, keyed `kyc:<accountId>`. */
export class KycClient extends ProcessClient<
  KycState,
  KycResult,
  WithClaims & WithTiming & { maxAttemptsPerField?: number }
> {
  protected readonly contract = { workflowType: 'kycWorkflow', workflowId: kycWorkflowId, stateQuery: kycStateQuery };

  /**
   * Starts a round of KYC resubmission, or attaches to the one running for the account. A round
   * may follow a finished one (the provider can send fields back later).
   */
  async start(accountId: string, options: KycStartOptions = {}): Promise<string> {
    const args = this.check(kycInput, {
      ...options,
      accountId,
      timing: this.opts.timing ?? {},
      maxAttemptsPerField: this.opts.maxAttemptsPerField,
    });
    // Each round's idempotency keys carry its own run chain's id: nothing to learn from earlier rounds.
    return this.startOrAttach<KycWorkflow>(args.accountId, [args], { reuse: 'ALLOW_DUPLICATE' });
  }

  /** A value such as an SSN: kept in the claim store, only its reference goes to the process. */
  async submitValue(accountId: string, fieldId: string, value: string): Promise<KycField> {
    this.check(valueText, { value });
    this.check(valueSubmission, {
      fieldId,
      value: { ...claimPlaceholder(Buffer.byteLength(value, 'utf8'), 'text/plain; charset=utf-8'), keyed: true },
    });
    const ref = await putValue(this.opts.claims, value, accountId);
    return this.update(kycWorkflowId(accountId), submitValueUpdate, { fieldId, value: ref }, this.stored(ref));
  }

  /** A file for a DOCUMENT field: size and MIME type are checked before it is stored. */
  async submitDocument(
    accountId: string,
    fieldId: string,
    file: { bytes: Uint8Array; contentType: string; documentType?: string; documentSubType?: 'FRONT' | 'BACK' },
  ): Promise<KycField> {
    const extra = { documentType: file.documentType, documentSubType: file.documentSubType };
    const checked = this.check(documentSubmission, {
      fieldId,
      document: claimPlaceholder(file.bytes.byteLength, file.contentType),
      ...extra,
    });
    const ref = await this.opts.claims.put(file.bytes, checked.document.contentType, { subject: accountId });
    return this.update(
      kycWorkflowId(accountId),
      submitDocumentUpdate,
      { ...checked, document: { ...ref, contentType: checked.document.contentType } },
      this.stored(ref),
    );
  }

  /** A claim this client stored for an update: deleted if the update is refused. */
  private stored(ref: ClaimRef) {
    return { store: this.opts.claims, refs: [ref] };
  }
}
