import type { Client } from '@temporalio/client';
import { z } from 'zod';
import type { ClaimRef } from '../../src/claims/ref.js';
import { type ClaimStore, putValue } from '../../src/claims/store.js';
import type { TimingInput } from '../lib/messages.js';
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
import { ProcessClient, type ProcessClientOptions } from '../lib/process-client.js';

// Stands in for a claim reference while the client checks a submission before storing anything.
const placeholder = (size: number, contentType: string) => ({
  ref: 'local:check',
  sha256: '0'.repeat(64),
  size,
  contentType,
});
const valueText = z.object({ value: z.string().trim().min(1, 'a value is required') });

/** KYC resubmission for one account, keyed `kyc:<accountId>`. */
/**
 * What a start may add to the account id: every input field of ./checks.ts but those the client's
 * configuration gives, so that a new input field reaches the workflow with no change here.
 */
export type KycStartOptions = Omit<KycInput, 'accountId' | 'timing' | 'maxAttemptsPerField' | 'priorSubmissions'>;

export class KycClient extends ProcessClient {
  constructor(
    client: Client,
    opts: ProcessClientOptions & { claims: ClaimStore; timing?: TimingInput; maxAttemptsPerField?: number },
  ) {
    super(client, opts);
    this.claims = opts.claims;
    this.timing = opts.timing ?? {};
    this.maxAttemptsPerField = opts.maxAttemptsPerField;
  }
  private readonly claims: ClaimStore;
  private readonly timing: TimingInput;
  private readonly maxAttemptsPerField: number | undefined;

  /**
   * Starts a round of KYC resubmission, or attaches to the one running for the account. A round
   * may follow a finished one (the provider can send fields back later).
   */
  async start(accountId: string, options: KycStartOptions = {}): Promise<string> {
    const args = this.check(kycInput, {
      ...options,
      accountId,
      timing: this.timing,
      maxAttemptsPerField: this.maxAttemptsPerField,
    });
    const id = kycWorkflowId(args.accountId);
    // Each round's idempotency keys carry its own run chain's id: nothing to learn from earlier rounds.
    await this.startOrAttach<KycWorkflow>({
      workflowType: 'kycWorkflow',
      workflowId: id,
      args: [args],
      reuse: 'ALLOW_DUPLICATE',
    });
    return id;
  }

  /** A value such as an SSN: kept in the claim store, only its reference goes to the process. */
  async submitValue(accountId: string, fieldId: string, value: string): Promise<KycField> {
    this.check(valueText, { value });
    this.check(valueSubmission, {
      fieldId,
      value: { ...placeholder(Buffer.byteLength(value, 'utf8'), 'text/plain; charset=utf-8'), keyed: true },
    });
    const ref = await putValue(this.claims, value, accountId);
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
      document: placeholder(file.bytes.byteLength, file.contentType),
      ...extra,
    });
    const ref = await this.claims.put(file.bytes, checked.document.contentType, { subject: accountId });
    return this.update(
      kycWorkflowId(accountId),
      submitDocumentUpdate,
      { ...checked, document: { ...ref, contentType: checked.document.contentType } },
      this.stored(ref),
    );
  }

  /** A claim this client stored for an update: deleted if the update is refused. */
  private stored(ref: ClaimRef) {
    return { store: this.claims, refs: [ref] };
  }

  state(accountId: string): Promise<KycState> {
    return this.query(kycWorkflowId(accountId), kycStateQuery);
  }

  result(accountId: string): Promise<KycResult> {
    return this.resultOf(kycWorkflowId(accountId));
  }
}
