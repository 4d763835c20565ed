import type { ClaimStore } from '../src/claims/store.js';
import type { ProviderClient } from '../src/provider/client.js';
import { readAccount, updateAccount, uploadDocument } from '../src/provider/endpoints.js';
import type { ClaimRef } from '../src/claims/ref.js';
import { withProviderFailures } from './provider-failure.js';

export interface AccountActivityDeps {
  provider: ProviderClient;
  claims: ClaimStore;
}

/** A profile field as the workflows see it: never the value itself (it may be personal data). */
export interface FieldView {
  fieldId: string;
  fieldType: string;
  status: 'OPEN' | 'PENDING' | 'APPROVED';
  note: string | null;
  /** Only for PAYMENT_METHOD fields: the payment method id, which is no personal data. */
  paymentMethodId?: string;
}

export function createAccountActivities({ provider, claims }: AccountActivityDeps) {
  return withProviderFailures({
    /** The account's status and profile fields, acting as the account (docs/provider-contract.md §5.4). */
    async readProfile(input: { accountId: string }) {
      const account = await provider.call(readAccount, {
        params: { accountId: input.accountId },
        masqueradeAs: input.accountId,
      });
      const fields: FieldView[] = account.profileFields.map((field) => ({
        fieldId: field.fieldId,
        fieldType: field.fieldType,
        status: field.status,
        note: field.note,
        ...(field.fieldType === 'PAYMENT_METHOD' && typeof field.value === 'string'
          ? { paymentMethodId: field.value }
          : {}),
      }));
      return { accountId: account.id, status: account.status ?? 'OPEN', fields };
    },

    /** Resubmits a value kept in the claim store; the idempotency key makes a retry count once. */
    async submitProfileValue(input: { accountId: string; fieldId: string; value: ClaimRef; idempotencyKey: string }) {
      const value = (await claims.get(input.value)).toString('utf8');
      const account = await provider.call(updateAccount, {
        params: { accountId: input.accountId },
        body: { profileFields: [{ fieldId: input.fieldId, value }] },
        masqueradeAs: input.accountId,
        idempotencyKey: input.idempotencyKey,
      });
      return { status: account.profileFields.find((f) => f.fieldId === input.fieldId)?.status ?? 'PENDING' };
    },

    /** Uploads a document kept in the claim store, verified against its reference first. */
    async uploadProfileDocument(input: {
      accountId: string;
      fieldId: 'individualGovernmentId' | 'individualProofOfAddress' | 'individualAchAuthorizationForm';
      document: ClaimRef;
      documentType?: string;
      documentSubType?: 'FRONT' | 'BACK';
      idempotencyKey: string;
    }) {
      const bytes = await claims.get(input.document);
      const account = await provider.call(uploadDocument, {
        params: { accountId: input.accountId, fieldId: input.fieldId },
        query: { documentType: input.documentType, documentSubType: input.documentSubType },
        body: { bytes, contentType: input.document.contentType as 'application/pdf' },
        masqueradeAs: input.accountId,
        idempotencyKey: input.idempotencyKey,
      });
      return { status: account.profileFields.find((f) => f.fieldId === input.fieldId)?.status ?? 'PENDING' };
    },
  });
}

export type AccountActivities = ReturnType<typeof createAccountActivities>;
