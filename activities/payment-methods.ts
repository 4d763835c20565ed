import type { ClaimStore } from '../src/claims/store.js';
import type { ProviderClient } from '../src/provider/client.js';
import { readAccount, readPaymentMethod, submitFollowup } from '../src/provider/endpoints.js';
import type { ClaimRef } from '../src/claims/ref.js';
import { withProviderFailures } from './provider-failure.js';

export function createPaymentMethodActivities({ provider, claims }: { provider: ProviderClient; claims: ClaimStore }) {
  return withProviderFailures({
    /** The method's status and the ids of what it waits for, and the account's source of funds. */
    async readPaymentMethodState(input: { paymentMethodId: string; accountId: string }) {
      const method = await provider.call(readPaymentMethod, {
        params: { paymentMethodId: input.paymentMethodId },
        masqueradeAs: input.accountId,
      });
      const account = await provider.call(readAccount, {
        params: { accountId: input.accountId },
        masqueradeAs: input.accountId,
      });
      const sourceOfFunds = account.profileFields.find((f) => f.fieldId === 'individualSourceOfFunds');
      return {
        status: method.status,
        waitingFor: method.waitingPrompts.map((p) => p.id),
        rejectionMessage: method.rejectionMessage,
        // docs/provider-contract.md §3.1: the account reflects the method only when the method is its source of funds.
        sourceOfFunds:
          sourceOfFunds && sourceOfFunds.value === method.id
            ? { status: sourceOfFunds.status, note: sourceOfFunds.note }
            : null,
      };
    },

    /** Sends the ACH authorization form kept in the claim store (docs/provider-contract.md §4.9). */
    async submitAchForm(input: { paymentMethodId: string; accountId: string; form: ClaimRef; idempotencyKey: string }) {
      const bytes = await claims.get(input.form);
      const method = await provider.call(submitFollowup, {
        params: { paymentMethodId: input.paymentMethodId },
        body: { bytes, contentType: input.form.contentType as 'image/jpeg' },
        masqueradeAs: input.accountId,
        idempotencyKey: input.idempotencyKey,
      });
      return { status: method.status, waitingFor: method.waitingPrompts.map((p) => p.id) };
    },
  });
}

export type PaymentMethodActivities = ReturnType<typeof createPaymentMethodActivities>;
