import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { ConfigError, loadConfig } from '../../src/config.js';
import { freePort } from '../../src/temporal/ports.js';
import { startServiceTokenSource } from '../../src/temporal/service-token.js';
import { serviceTokens } from '../../src/temporal/connection.js';
import { inProcessIdp } from '../helpers/sign-in.js';

// A service's token for Temporal by client credentials, from a real provider (the stand-in,
// oidc-provider) in this process: fetched at start, replaced before it expires, a refusal said
// with the settings to check; and the TEMPORAL_OAUTH_* settings, refused when incomplete or unsafe.

const AUDIENCE = 'api://payflows';
const SERVICE = { clientId: 'payflows-services', clientSecret: 'services-secret-0123', permissions: ['default:write'] };
const idpOptions = (accessTokenTtlSeconds?: number) => ({
  audience: AUDIENCE,
  users: [],
  webClients: [],
  serviceClients: [SERVICE],
  ...(accessTokenTtlSeconds ? { accessTokenTtlSeconds } : {}),
});

describe('service token source', () => {
  let idp: Awaited<ReturnType<typeof inProcessIdp>>;
  let shortLived: Awaited<ReturnType<typeof inProcessIdp>>;
  before(async () => {
    idp = await inProcessIdp(idpOptions());
    shortLived = await inProcessIdp(idpOptions(1));
  });
  after(async () => {
    await idp.close();
    await shortLived.close();
  });
  const credentials = (tokenUrl: string, clientSecret = SERVICE.clientSecret) => ({
    tokenUrl,
    clientId: SERVICE.clientId,
    clientSecret,
  });

  it("fetches the service's token, with its writer role, for the audience", async () => {
    const tokens = await startServiceTokenSource(credentials(idp.tokenUrl));
    try {
      const claims = decodeJwt(tokens.current());
      assert.deepEqual(claims.permissions, ['default:write']);
      assert.equal(claims.aud, AUDIENCE);
      assert.equal(claims.iss, idp.issuer);
    } finally {
      tokens.stop();
    }
  });

  it('replaces the token before it expires', async () => {
    const tokens = await startServiceTokenSource(credentials(shortLived.tokenUrl));
    try {
      const first = tokens.current();
      const firstExpiry = decodeJwt(first).exp!;
      const refreshed = await new Promise<string>((resolve) => tokens.onRefresh(resolve));
      assert.notEqual(refreshed, first);
      assert.equal(tokens.current(), refreshed);
      // Fetched while the first was still valid (its expiry is a whole second after its issue).
      assert.ok(decodeJwt(refreshed).iat! <= firstExpiry, 'the new token was issued by the time the old one expired');
    } finally {
      tokens.stop();
    }
  });

  it('keeps the held token and says why when a refresh fails', async () => {
    const flaky = await inProcessIdp(idpOptions(1));
    const lines: string[] = [];
    const tokens = await startServiceTokenSource(credentials(flaky.tokenUrl), { log: (l) => lines.push(l) });
    try {
      const held = tokens.current();
      await flaky.close();
      const deadline = Date.now() + 5_000;
      while (lines.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      assert.match(lines[0] ?? '', /TEMPORAL_OAUTH_TOKEN_URL.*the held token stays in use, next try in/s);
      assert.equal(tokens.current(), held);
    } finally {
      tokens.stop();
    }
  });

  it("says a service's failed refresh through the service's own logger, named by its role", async () => {
    const flaky = await inProcessIdp(idpOptions(1));
    const warned: string[] = [];
    const config = loadConfig({
      TEMPORAL_ADDRESS: '127.0.0.1:7233',
      TEMPORAL_OAUTH_TOKEN_URL: flaky.tokenUrl,
      TEMPORAL_OAUTH_CLIENT_ID: SERVICE.clientId,
      TEMPORAL_OAUTH_CLIENT_SECRET: SERVICE.clientSecret,
    });
    const tokens = await serviceTokens(config, 'ingress', { warn: (line) => warned.push(line) });
    try {
      await flaky.close();
      const deadline = Date.now() + 5_000;
      while (warned.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      assert.match(warned[0] ?? '', /^ingress: .*the held token stays in use/s);
    } finally {
      tokens?.stop();
    }
  });

  it('refuses to start with a wrong secret, naming the settings and never the secret', async () => {
    const wrong = 'not-the-secret-4711';
    await assert.rejects(startServiceTokenSource(credentials(idp.tokenUrl, wrong)), (err: Error) => {
      assert.match(err.message, /HTTP 401 invalid_client.*TEMPORAL_OAUTH_CLIENT_ID and TEMPORAL_OAUTH_CLIENT_SECRET/s);
      assert.ok(!err.message.includes(wrong));
      return true;
    });
  });

  it('refuses to start when the endpoint does not answer, naming the URL setting', async () => {
    const nowhere = `http://127.0.0.1:${await freePort()}/token`;
    await assert.rejects(startServiceTokenSource(credentials(nowhere)), /TEMPORAL_OAUTH_TOKEN_URL.*provider runs/s);
  });
});

describe('TEMPORAL_OAUTH_* settings', () => {
  const oauth = {
    TEMPORAL_ADDRESS: 'temporal.example:7233',
    TEMPORAL_OAUTH_TOKEN_URL: 'https://login.example/oauth2/token',
    TEMPORAL_OAUTH_CLIENT_ID: 'payflows-worker',
    TEMPORAL_OAUTH_CLIENT_SECRET: 'worker-secret-0123',
  };
  const refused = (env: Record<string, string>, pattern: RegExp) =>
    assert.throws(
      () => loadConfig(env),
      (err: unknown) => {
        assert.ok(err instanceof ConfigError, String(err));
        assert.match(err.message, pattern);
        assert.ok(!err.message.includes(oauth.TEMPORAL_OAUTH_CLIENT_SECRET), 'the secret is never shown');
        return true;
      },
    );

  it('gives the client credentials, with TLS implied as an API key implies it', () => {
    const config = loadConfig(oauth);
    assert.deepEqual(config.temporal.serviceToken, {
      tokenUrl: oauth.TEMPORAL_OAUTH_TOKEN_URL,
      clientId: oauth.TEMPORAL_OAUTH_CLIENT_ID,
      clientSecret: oauth.TEMPORAL_OAUTH_CLIENT_SECRET,
    });
    assert.ok(config.temporal.connection.tls);
    assert.equal(
      loadConfig({ ...oauth, TEMPORAL_OAUTH_SCOPE: 'api://payflows/.default' }).temporal.serviceToken?.scope,
      'api://payflows/.default',
    );
    assert.equal(loadConfig({ TEMPORAL_ADDRESS: '127.0.0.1:7233' }).temporal.serviceToken, undefined);
  });

  it('refuses a part of the credentials without the rest, naming what is missing', () => {
    const { TEMPORAL_OAUTH_CLIENT_SECRET: _, ...noSecret } = oauth;
    refused(noSecret, /TEMPORAL_OAUTH_CLIENT_SECRET: required with TEMPORAL_OAUTH_TOKEN_URL, TEMPORAL_OAUTH_CLIENT_ID/);
    refused({ TEMPORAL_ADDRESS: '127.0.0.1:7233', TEMPORAL_OAUTH_SCOPE: 'x' }, /TEMPORAL_OAUTH_SCOPE: set only with/);
  });

  it('refuses a token endpoint in clear off loopback, and a token sent in clear', () => {
    refused(
      { ...oauth, TEMPORAL_OAUTH_TOKEN_URL: 'http://login.example/token' },
      /TEMPORAL_OAUTH_TOKEN_URL: must be https:\/\//,
    );
    refused(
      { ...oauth, TEMPORAL_OAUTH_TOKEN_URL: 'not a url' },
      /TEMPORAL_OAUTH_TOKEN_URL: must be the provider's https:\/\/ token endpoint/,
    );
    assert.ok(loadConfig({ ...oauth, TEMPORAL_OAUTH_TOKEN_URL: 'http://127.0.0.1:9000/token' }).temporal.serviceToken);
    refused({ ...oauth, TEMPORAL_TLS: 'false' }, /TEMPORAL_TLS: remove TEMPORAL_TLS=false .*travel in clear/);
  });

  it('refuses two credentials at once', () => {
    refused(
      { ...oauth, TEMPORAL_API_KEY: 'static-key-0123' },
      /TEMPORAL_API_KEY: unset it, or the TEMPORAL_OAUTH_\* settings/,
    );
  });
});
