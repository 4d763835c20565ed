import type { ProviderClient } from '../src/provider/client.js';
import { calculateLimits, createUser, readOnboardingLink, readUser } from '../src/provider/endpoints.js';
import { DEBIT_CARD_L2 } from '../src/provider/schemas/user.js';
import { withProviderFailures } from './provider-failure.js';

export function createUserActivities({ provider, accountId }: { provider: ProviderClient; accountId: string }) {
  return withProviderFailures({
    /** Creates a user with the higher-limits scope (docs/provider-contract.md §2.7); the key makes a retry return the same user. */
    async createHigherLimitsUser(input: { country: string; idempotencyKey: string }) {
      const user = await provider.call(createUser, {
        body: { fields: { country: input.country }, scopes: [DEBIT_CARD_L2], blockchains: [], immediate: false },
        idempotencyKey: input.idempotencyKey,
      });
      return { userId: user.id, status: user.status };
    },

    async readUserStatus(input: { userId: string }) {
      const user = await provider.call(readUser, {
        params: { userId: input.userId },
        masqueradeAs: `user:${input.userId}`,
      });
      return { status: user.status };
    },

    /** A fresh onboarding link every time: it lives 30 minutes and must never be cached (docs/provider-contract.md §4.7). */
    async fetchOnboardingLink(input: { userId: string }) {
      const link = await provider.call(readOnboardingLink, { params: { userId: input.userId } });
      return { url: link.verificationLinkUrl };
    },

    /** docs/provider-contract.md §4.6: the parent account (these credentials' account) asks about its user. */
    async calculateUserLimits(input: { userId: string }) {
      return provider.call(calculateLimits, { body: { accountId, userId: input.userId } });
    },
  });
}

export type UserActivities = ReturnType<typeof createUserActivities>;
