import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { decodeJwt, decodeProtectedHeader, generateKeyPair, SignJWT } from 'jose';
import { request } from 'undici';
import { loadConfig } from '../../src/config.js';
import { createCodecServerMetrics } from '../../src/telemetry/codec-server-metrics.js';
import { EncryptionCodec } from '../../src/temporal/codec.js';
import { type CodecAccess, createCodecServer, toWire } from '../../src/temporal/codec-server.js';
import { rolesAt, type SignInAccess, signInAccess } from '../../src/temporal/codec-server-oidc.js';
import { freePort } from '../../src/temporal/ports.js';
import { inProcessIdp, serviceToken, userToken } from '../helpers/sign-in.js';

// The codec server trusts a user signed in at the identity provider: the access token the Web UI
// passes is verified against the provider's published keys (issuer, audience, expiry), and decodes
// only with the decode role for the namespace named. Real tokens from a real provider (the
// stand-in, oidc-provider) in this process.

const UI = 'http://127.0.0.1:8080';
const AUDIENCE = 'api://payflows';
const TOKEN = 'tok-codec-0123456789abcdef';
const SSN = '"123-45-6789"';
const codec = new EncryptionCodec(Buffer.alloc(32, 7));
const UI_CLIENT = {
  clientId: 'temporal-ui',
  clientSecret: 'ui-secret-0123',
  redirectUri: 'http://127.0.0.1:8080/auth/sso/callback',
};
const users = [
  { username: 'reader', password: 'reader-password', permissions: ['default:read', 'default:decode'] },
  { username: 'reader-without-decode', password: 'plain-password', permissions: ['default:read'] },
];
const idpOptions = (accessTokenTtlSeconds?: number) => ({
  audience: AUDIENCE,
  users,
  webClients: [{ ...UI_CLIENT, redirectUris: [UI_CLIENT.redirectUri] }],
  serviceClients: [
    { clientId: 'decoder', clientSecret: 'decoder-secret', permissions: ['default:decode'] },
    { clientId: 'other-namespace', clientSecret: 'other-secret', permissions: ['other:decode'] },
  ],
  accessTokenTtlSeconds,
});

/** A codec server trusting `signIn`, with the shared token too; its decode call as the Web UI makes it. */
async function serve(signIn: SignInAccess) {
  const port = await freePort();
  const host = `127.0.0.1:${port}`;
  const metrics = createCodecServerMetrics();
  const access: CodecAccess = {
    allowedOrigins: [UI],
    allowedHosts: [host],
    token: TOKEN,
    namespace: 'default',
    signIn,
  };
  const app = createCodecServer(codec, access, { metrics });
  await app.listen({ port, host: '127.0.0.1' });
  const body = JSON.stringify({
    payloads: (await codec.encode([{ metadata: { encoding: Buffer.from('json/plain') }, data: Buffer.from(SSN) }])).map(
      toWire,
    ),
  });
  const call = async (path: string, headers: Record<string, string>) => {
    const res = await request(`http://${host}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: UI, 'x-namespace': 'default', ...headers },
      body,
    });
    const text = await res.body.text();
    return { status: res.statusCode, text, decoded: text.includes(Buffer.from(SSN).toString('base64')) };
  };
  const decode = (headers: Record<string, string>) => call('/decode', headers);
  const counted = async (outcome: string) =>
    (await metrics.registry.getSingleMetric('payflows_codec_server_requests_total')!.get()).values.find(
      (v) => v.labels.route === '/decode' && v.labels.outcome === outcome,
    )?.value ?? 0;
  return { decode, call, counted, close: () => app.close() };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('codec server: users signed in at the identity provider', () => {
  let idp: Awaited<ReturnType<typeof inProcessIdp>>;
  let server: Awaited<ReturnType<typeof serve>>;
  let reader = '';
  before(async () => {
    idp = await inProcessIdp(idpOptions());
    server = await serve({
      issuer: idp.issuer,
      audience: AUDIENCE,
      roleClaim: 'permissions',
      decodeRole: '{namespace}:decode',
    });
    reader = await userToken(idp, UI_CLIENT, users[0]!);
  });
  after(async () => {
    await server?.close();
    await idp?.close();
  });

  it('decodes for a user whose access token holds the decode role for the namespace named', async () => {
    const r = await server.decode(bearer(reader));
    assert.equal(r.status, 200, r.text);
    assert.ok(r.decoded);
  });

  it('refuses a signed-in user without the decode role (403), and one whose role is for another namespace', async () => {
    const before = await server.counted('forbidden');
    const plain = await server.decode(bearer(await userToken(idp, UI_CLIENT, users[1]!)));
    assert.equal(plain.status, 403);
    assert.match(
      plain.text,
      /reader-without-decode may not decode payloads of default: the token's permissions has no default:decode/,
    );
    assert.ok(!plain.decoded);
    const other = await server.decode(bearer(await serviceToken(idp.tokenUrl, 'other-namespace', 'other-secret')));
    assert.equal(other.status, 403);
    assert.equal(await server.counted('forbidden'), before + 2);
  });

  it('reads the namespace from X-Namespace: a role for default does not decode a call naming another', async () => {
    const r = await server.decode({ ...bearer(reader), 'x-namespace': 'other' });
    assert.equal(r.status, 403);
    assert.ok(!r.decoded);
  });

  it('refuses a token signed by another key under the provider’s key id (401), counted unauthenticated', async () => {
    const before = await server.counted('unauthenticated');
    const { privateKey } = await generateKeyPair('RS256');
    const forged = await new SignJWT({ permissions: ['default:decode'], sub: 'mallory' })
      .setProtectedHeader({ alg: 'RS256', kid: decodeProtectedHeader(reader).kid!, typ: 'at+jwt' })
      .setIssuer(idp.issuer)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);
    const r = await server.decode(bearer(forged));
    assert.equal(r.status, 401);
    assert.match(r.text, /not one the issuer signed/);
    assert.ok(!r.decoded);
    assert.equal(await server.counted('unauthenticated'), before + 1);
  });

  it('refuses an unsigned token and a malformed one (401)', async () => {
    const [, payload] = reader.split('.');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${payload}.`;
    assert.equal((await server.decode(bearer(none))).status, 401);
    assert.equal((await server.decode(bearer('not-a-jwt'))).status, 401);
  });

  it('a bearer that is neither the shared token nor a JWT is told which credentials there are (401)', async () => {
    const r = await server.decode(bearer('not-the-codec-servers-token'));
    assert.equal(r.status, 401);
    assert.match(
      r.text,
      /a credential is required: sign in to the Web UI at .+, or Authorization: Bearer <CODEC_SERVER_TOKEN>/,
    );
    assert.ok(!r.decoded);
  });

  it('the shared token still decodes (the CLI, services); the browser session of /session is off', async () => {
    assert.equal((await server.decode(bearer(TOKEN))).status, 200);
    const page = await server.call('/session', { 'content-type': 'application/x-www-form-urlencoded' });
    assert.notEqual(page.status, 200);
    const forgedCookie = await server.decode({ cookie: 'payflows_codec_session=99999999999999.abc' });
    assert.equal(forgedCookie.status, 401);
    assert.match(forgedCookie.text, /sign in to the Web UI/);
  });
});

describe('codec server: tokens for another audience, from another issuer, or expired', () => {
  let idp: Awaited<ReturnType<typeof inProcessIdp>>;
  let other: Awaited<ReturnType<typeof inProcessIdp>>;
  before(async () => {
    // Short-lived, yet long enough that a fresh token is still valid on a loaded machine: its expiry is
    // in whole seconds from a whole-second issue time, so one second could end within milliseconds.
    [idp, other] = await Promise.all([inProcessIdp(idpOptions(4)), inProcessIdp(idpOptions())]);
  });
  after(async () => {
    await idp?.close();
    await other?.close();
  });
  const access = (issuer: string, audience = AUDIENCE) => ({
    issuer,
    audience,
    roleClaim: 'permissions',
    decodeRole: '{namespace}:decode',
  });

  it('refuses a token whose audience is not the codec server’s (401)', async () => {
    const server = await serve(access(idp.issuer, 'api://something-else'));
    try {
      const r = await server.decode(bearer(await serviceToken(idp.tokenUrl, 'decoder', 'decoder-secret')));
      assert.equal(r.status, 401);
      assert.match(r.text, /aud is not this codec server's \(CODEC_SERVER_OIDC_AUDIENCE\)/);
    } finally {
      await server.close();
    }
  });

  it('refuses a token of another issuer (401)', async () => {
    const server = await serve(access(other.issuer));
    try {
      const r = await server.decode(bearer(await serviceToken(idp.tokenUrl, 'decoder', 'decoder-secret')));
      assert.equal(r.status, 401);
      assert.ok(!r.decoded);
    } finally {
      await server.close();
    }
  });

  it('decodes with a fresh token and refuses it once expired (401, sign in again)', async () => {
    const server = await serve(access(idp.issuer));
    try {
      const token = await serviceToken(idp.tokenUrl, 'decoder', 'decoder-secret');
      assert.equal((await server.decode(bearer(token))).status, 200);
      const { exp } = decodeJwt(token);
      await new Promise((r) => setTimeout(r, exp! * 1000 - Date.now() + 100));
      const r = await server.decode(bearer(token));
      assert.equal(r.status, 401);
      assert.match(r.text, /expired: sign in again/);
    } finally {
      await server.close();
    }
  });

  it('answers 503 while the provider’s discovery document cannot be read, and nothing is decoded', async () => {
    const server = await serve(access(`http://127.0.0.1:${await freePort()}`));
    try {
      const r = await server.decode(bearer(await serviceToken(idp.tokenUrl, 'decoder', 'decoder-secret')));
      assert.equal(r.status, 503);
      assert.match(r.text, /identity provider's keys could not be read/);
    } finally {
      await server.close();
    }
  });
});

describe('codec server: sign-in settings', () => {
  const refusal = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (err) {
      return (err as Error).message;
    }
    return 'accepted';
  };

  it('an issuer must be https off loopback: the variable is named, its value never quoted', () => {
    const message = refusal({
      CODEC_SERVER_OIDC_ISSUER: 'http://idp.example.com',
      CODEC_SERVER_OIDC_AUDIENCE: AUDIENCE,
    });
    assert.match(message, /CODEC_SERVER_OIDC_ISSUER: must be https:\/\/ \(http:\/\/ only on loopback/);
    assert.doesNotMatch(message, /idp\.example\.com/);
    assert.match(
      refusal({ CODEC_SERVER_OIDC_ISSUER: 'idp.example.com' }),
      /CODEC_SERVER_OIDC_ISSUER: must be an https:\/\//,
    );
    for (const ok of ['https://idp.example.com/realms/ops', 'http://127.0.0.1:9000', 'http://localhost:9000/'])
      assert.equal(refusal({ CODEC_SERVER_OIDC_ISSUER: ok, CODEC_SERVER_OIDC_AUDIENCE: AUDIENCE }), 'accepted', ok);
  });

  it('a role claim that names nothing is refused, naming CODEC_SERVER_OIDC_ROLE_CLAIM; a dotted path is taken', () => {
    for (const bad of [' ', 'realm_access..roles', '.roles', 'roles.', 'my roles'])
      assert.match(
        refusal({ CODEC_SERVER_OIDC_ROLE_CLAIM: bad }),
        /CODEC_SERVER_OIDC_ROLE_CLAIM: must name a claim/,
        bad,
      );
    assert.equal(
      loadConfig({ CODEC_SERVER_OIDC_ROLE_CLAIM: 'realm_access.roles' }).codecServer.oidc.roleClaim,
      'realm_access.roles',
    );
    assert.equal(loadConfig({}).codecServer.oidc.roleClaim, 'permissions');
  });

  it('reads roles at a dotted path, as a list or a space-separated string', () => {
    assert.deepEqual(rolesAt({ realm_access: { roles: ['a', 'b', 3] } }, 'realm_access.roles'), ['a', 'b']);
    assert.deepEqual(rolesAt({ scp: 'x y' }, 'scp'), ['x', 'y']);
    assert.deepEqual(rolesAt({ groups: 'x' }, 'groups.none'), []);
  });

  it('the codec server refuses to start with an issuer but no audience (exit 78), naming the variable', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/temporal/codec-server-main.ts'], {
      env: {
        PATH: process.env.PATH ?? '',
        TEMPORAL_ADDRESS: '127.0.0.1:1',
        PAYLOAD_ENCRYPTION_KEY: Buffer.alloc(32, 5).toString('base64'),
        CODEC_SERVER_PORT: '1',
        CODEC_SERVER_OIDC_ISSUER: 'https://idp.example.com',
      },
      encoding: 'utf8',
      timeout: 30_000,
    });
    assert.equal(run.status, 78, run.stderr);
    assert.match(run.stderr, /CODEC_SERVER_OIDC_AUDIENCE: required with CODEC_SERVER_OIDC_ISSUER/);
  });

  it('an issuer without an audience refuses to start, naming CODEC_SERVER_OIDC_AUDIENCE', () => {
    assert.throws(
      () => signInAccess({ issuer: 'https://idp.example.com', roleClaim: 'permissions', decodeRole: 'x' }),
      /CODEC_SERVER_OIDC_AUDIENCE: required with CODEC_SERVER_OIDC_ISSUER/,
    );
    assert.equal(signInAccess({ roleClaim: 'permissions', decodeRole: 'x' }), undefined);
  });
});
