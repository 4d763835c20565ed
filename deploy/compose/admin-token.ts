import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { loadConfig } from '../../src/config.js';
import { fetchToken } from '../../src/temporal/service-token.js';

// docker-compose.yml's one-shot `admin-token` service: an access token of the namespace's admin
// (client credentials TEMPORAL_OAUTH_*, the provider's `payflows-admin` client) written to the file
// named, for `temporal-namespace` to create the namespace and its search attributes with (an
// authorizing server lets an admin only). The token lives an hour; the namespace step deletes the file.
//   node --import tsx deploy/compose/admin-token.ts /run/payflows-admin/token

/** How long a provider that does not answer yet (its container starting beside this one) is waited for. */
const PROVIDER_WAIT_MS = 60_000;

/**
 * Fetches the token with the settings of `env` and writes it, owner-only, to `file`. A provider
 * that cannot be reached is asked again each second for `waitMs`; a refusal ends it at once.
 */
export async function writeAdminToken(
  env: Record<string, string | undefined>,
  file: string,
  { waitMs = PROVIDER_WAIT_MS }: { waitMs?: number } = {},
): Promise<void> {
  const credentials = loadConfig(env).temporal.serviceToken;
  if (!credentials)
    throw new Error(
      'admin-token: set TEMPORAL_OAUTH_TOKEN_URL, TEMPORAL_OAUTH_CLIENT_ID and TEMPORAL_OAUTH_CLIENT_SECRET (the admin client)',
    );
  const until = Date.now() + waitMs;
  for (;;) {
    try {
      const { token } = await fetchToken(credentials);
      writeFileSync(file, token, { mode: 0o600 });
      return;
    } catch (err) {
      // Unreachable (the request itself failed) is worth waiting for; an answer that refuses is not.
      if ((err as Error).cause === undefined || Date.now() >= until) throw err;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const file = process.argv[2];
  if (!file) {
    console.error('admin-token: give the file to write the token to');
    process.exit(2);
  }
  await writeAdminToken(process.env, file);
  console.log(`admin-token: written to ${file}`);
}
