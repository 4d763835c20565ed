import type { ClaimStore } from '../src/claims/store.js';
import { ProviderClient, type ProviderClientOptions } from '../src/provider/client.js';
import { createAccount, registerClientSecret } from '../src/provider/endpoints.js';
import type { ClaimRef } from '../src/claims/ref.js';
import { withProviderFailures } from './provider-failure.js';

// docs/provider-contract.md §5.3: the client's own secret, kept in the claim store so that it never enters history.
export function createSessionActivities({
  providerOptions,
  claims,
}: {
  providerOptions: Omit<ProviderClientOptions, 'auth'>;
  claims: ClaimStore;
}) {
  const withToken = async <T>(secret: ClaimRef, fn: (client: ProviderClient, token: string) => Promise<T>) => {
    const token = (await claims.get(secret)).toString('utf8');
    const client = new ProviderClient({ ...providerOptions, auth: { kind: 'bearer', token } });
    try {
      return await fn(client, token);
    } finally {
      await client.close();
    }
  };
  return withProviderFailures({
    async registerClientToken(input: { secret: ClaimRef }) {
      return withToken(input.secret, async (client, token) => ({
        apiKey: (await client.call(registerClientSecret, { query: { secretKey: token } })).apiKey,
      }));
    },

    /** The token's one account; a repeat with the same key returns it, a second creation fails (docs/provider-contract.md §7.1). */
    async createAccountWithToken(input: { secret: ClaimRef; country: string; idempotencyKey: string }) {
      return withToken(input.secret, async (client) => {
        const account = await client.call(createAccount, {
          body: { country: input.country },
          idempotencyKey: input.idempotencyKey,
        });
        return { accountId: account.id, status: account.status ?? 'OPEN' };
      });
    },
  });
}

export type SessionActivities = ReturnType<typeof createSessionActivities>;
