import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PERMISSIONS_CLAIM } from '../../src/settings/sign-in.js';
import type { StandInIdpOptions } from '../../src/stand-in-idp/provider.js';

// Who signs in to `npm run cluster` and the cluster suite: the stand-in identity provider's
// configuration (src/stand-in-idp/), its test users with their permissions, the Web UI's client and
// the services' clients, with passwords and secrets made new for each run.

/** The audience of every access token: the Temporal frontend and the codec server verify it. */
export const AUDIENCE = 'api://payflows';
/** The Web UI server's OIDC callback (ui-server v2: /auth/sso/callback). */
export const UI_CALLBACK_PATH = '/auth/sso/callback';

/** The test users, by what they may do in `namespace`. */
export const userPermissions = (namespace: string) => ({
  /** Lists and reads, and sees payloads decoded. */
  reader: [`${namespace}:read`, `${namespace}:decode`],
  /** Lists and reads; payloads stay encoded. */
  'reader-without-decode': [`${namespace}:read`],
  /** Also signals and updates. */
  operator: [`${namespace}:write`, `${namespace}:decode`],
  /** Also resets, terminates and deletes. */
  admin: [`${namespace}:admin`, `${namespace}:decode`],
});

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
  permissions: string[];
}

/** What the cluster's description says about sign-in (the tests' and the operator's view). */
export interface SignIn {
  issuer: string;
  jwksUrl: string;
  tokenUrl: string;
  audience: string;
  permissionsClaim: string;
  /** The stand-in's configuration file (owner-only: the users' passwords and the clients' secrets). */
  configFile: string;
  users: Array<{ username: string; password: string; permissions: string[] }>;
  ui: { clientId: string; clientSecret: string; callbackUrl: string };
  /** Workers, ingress, backends: the namespace's writer role. */
  services: ClientCredentials;
  /** Namespace set-up and the tests' administration: admin of the namespace and of the cluster. */
  admin: ClientCredentials;
  /** A reader whose tokens expire 2 s after they are issued: the tests of expired tokens. */
  shortLived: ClientCredentials & { accessTokenTtlSeconds: number };
}

const secret = () => randomBytes(18).toString('base64url');

/** Writes the stand-in's configuration into `dir` for `port`, the Web UI at `uiUrl`; what the cluster then says about sign-in. */
export function signInConfig({
  dir,
  port,
  namespace,
  uiUrl,
}: {
  dir: string;
  port: number;
  namespace: string;
  uiUrl: string;
}): SignIn {
  const issuer = `http://127.0.0.1:${port}`;
  const users = Object.entries(userPermissions(namespace)).map(([username, permissions]) => ({
    username,
    password: secret(),
    permissions,
  }));
  const ui = { clientId: 'temporal-ui', clientSecret: secret(), callbackUrl: `${uiUrl}${UI_CALLBACK_PATH}` };
  const services = { clientId: 'payflows-services', clientSecret: secret(), permissions: [`${namespace}:write`] };
  const admin = {
    clientId: 'payflows-admin',
    clientSecret: secret(),
    permissions: [`${namespace}:admin`, 'temporal-system:admin'],
  };
  const shortLived = {
    clientId: 'short-lived-reader',
    clientSecret: secret(),
    permissions: [`${namespace}:read`, `${namespace}:decode`],
    accessTokenTtlSeconds: 5,
  };
  const options: StandInIdpOptions & { host: string; port: number } = {
    issuer,
    host: '127.0.0.1',
    port,
    audience: AUDIENCE,
    users,
    webClients: [{ clientId: ui.clientId, clientSecret: ui.clientSecret, redirectUris: [ui.callbackUrl] }],
    serviceClients: [services, admin, shortLived],
  };
  const configFile = join(dir, 'stand-in-idp.json');
  writeFileSync(configFile, JSON.stringify(options, null, 2), { mode: 0o600 });
  return {
    issuer,
    jwksUrl: `${issuer}/jwks`,
    tokenUrl: `${issuer}/token`,
    audience: AUDIENCE,
    permissionsClaim: PERMISSIONS_CLAIM,
    configFile,
    users,
    ui,
    services,
    admin,
    shortLived,
  };
}

/**
 * The settings a process joins `temporal` with: the frontend's CA where it serves TLS, and where it
 * authorizes, client credentials whose tokens the process fetches and refreshes itself: the
 * services' (the namespace's writer role: workers, ingress, backends) unless `as` says the admin's
 * (the tests' administration, which ends and resets what the tests started).
 */
export function temporalServiceEnv(
  temporal: { tls?: { caCert: string; serverName: string }; authorization?: unknown },
  signIn: Pick<SignIn, 'tokenUrl' | 'services' | 'admin'>,
  { as = 'services' }: { as?: 'services' | 'admin' } = {},
): Record<string, string> {
  return {
    ...(temporal.tls && {
      TEMPORAL_TLS_SERVER_CA_CERT_PATH: temporal.tls.caCert,
      TEMPORAL_TLS_SERVER_NAME: temporal.tls.serverName,
    }),
    ...(temporal.authorization !== undefined && {
      TEMPORAL_OAUTH_TOKEN_URL: signIn.tokenUrl,
      TEMPORAL_OAUTH_CLIENT_ID: signIn[as].clientId,
      TEMPORAL_OAUTH_CLIENT_SECRET: signIn[as].clientSecret,
    }),
  };
}
