import { randomInt } from 'node:crypto';
import { ProviderClient, type ProviderClientOptions } from './client.js';
import { registerClientSecret } from './endpoints.js';
import { ProviderInputError } from './errors.js';
import { clientSecret } from './schemas/session.js';

// docs/provider-contract.md §5.3: decentralised clients hold their own secret.

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A secret of `length` alphanumerics from a cryptographically secure source (30, as in the reference flow). */
export function generateClientSecret(length = 30): string {
  if (!Number.isInteger(length) || length < 25 || length > 35) {
    throw new ProviderInputError('generate client secret', 'length', `must be 25 to 35 characters, got ${length}`);
  }
  let secret = '';
  for (let i = 0; i < length; i++) secret += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return secret;
}

export interface ClientCredentials {
  secret: string;
  /** The API key the provider returned for this secret. */
  apiKey: string;
  /** Authorization: Bearer <secret> (step 2). */
  bearer: ProviderClient;
  /** Signature auth with the returned API key and the secret as signing key (step 4). */
  signed: ProviderClient;
}

/** Registers `secret` and returns clients for both ways of using it; their first call binds the token to an account. */
export async function registerClientToken(
  opts: Omit<ProviderClientOptions, 'auth'> & { secret: string },
): Promise<ClientCredentials> {
  const parsed = clientSecret.safeParse(opts.secret);
  if (!parsed.success) throw new ProviderInputError('register client token', 'secret', parsed.error.issues[0]!.message);
  const { secret, ...rest } = opts;
  const anonymous = new ProviderClient({ ...rest, auth: { kind: 'bearer', token: secret } });
  try {
    const { apiKey } = await anonymous.call(registerClientSecret, { query: { secretKey: secret } });
    return {
      secret,
      apiKey,
      bearer: new ProviderClient({ ...rest, auth: { kind: 'bearer', token: secret } }),
      signed: new ProviderClient({ ...rest, auth: { kind: 'signature', apiKey, secretKey: secret } }),
    };
  } finally {
    await anonymous.close();
  }
}
