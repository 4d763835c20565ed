import { clientSecret } from '../../provider/schemas/session.js';
import type { SandboxContext } from '../context.js';
import { validationError } from '../errors.js';
import { newId } from '../ids.js';
import type { ProviderRoute } from '../provider-route.js';
import { registerClientSecret } from '../../provider/endpoints.js';

export function registerSessionRoutes(route: ProviderRoute, ctx: SandboxContext): void {
  // 4.2 and 5.3: registers a client-generated secret. No account exists for it until the token
  // creates one. Registering the same secret again returns the same key.
  route(registerClientSecret, ({ query }) => {
    const secret = query.secretKey;
    const parsed = clientSecret.safeParse(secret);
    if (!parsed.success) throw validationError('secretKey', parsed.error.issues[0]!.message, secret);
    const existing = ctx.store.credentialBySecret(parsed.data);
    if (existing && existing.kind !== 'client-token')
      throw validationError('secretKey', 'choose another secret', '(hidden)');
    const cred = existing ?? {
      apiKey: `AK-${newId('CT').slice(3)}`,
      secretKey: parsed.data,
      accountId: null,
      kind: 'client-token' as const,
    };
    if (!existing) ctx.store.state.credentials.push(cred);
    return { apiKey: cred.apiKey, authenticatedAs: null };
  });
}
