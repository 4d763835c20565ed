import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { get } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { makeCertificates } from '../../scripts/lib/tls.js';
import { freePort } from '../../src/temporal/ports.js';
import { inProcessIdp, serviceToken, userToken } from '../helpers/sign-in.js';

// The stand-in identity provider of the cluster (src/stand-in-idp/): its users sign in with their
// password only, tokens carry each one's permissions for the one audience, a client's own token
// lifetime is kept, it serves https with a certificate it is given (compose's issuer is off
// loopback), and a bad configuration file refuses to start naming the field.

const client = { clientId: 'temporal-ui', clientSecret: 'ui-secret-0123', redirectUri: 'http://127.0.0.1:9/cb' };
const reader = { username: 'reader', password: 'reader-password', permissions: ['default:read', 'default:decode'] };

describe('the stand-in identity provider', () => {
  let idp: Awaited<ReturnType<typeof inProcessIdp>>;
  before(async () => {
    idp = await inProcessIdp({
      audience: 'api://payflows',
      users: [reader],
      webClients: [{ ...client, redirectUris: [client.redirectUri] }],
      serviceClients: [
        { clientId: 'svc', clientSecret: 'svc-secret-0123', permissions: ['default:write'] },
        { clientId: 'brief', clientSecret: 'brief-secret-01', permissions: [], accessTokenTtlSeconds: 2 },
      ],
    });
  });
  after(async () => idp?.close());

  it('a user’s access token names the user, the audience and the user’s permissions', async () => {
    const claims = decodeJwt(await userToken(idp, client, reader));
    assert.equal(claims.sub, 'reader');
    assert.equal(claims.iss, idp.issuer);
    assert.equal(claims.aud, 'api://payflows');
    assert.deepEqual(claims.permissions, reader.permissions);
  });

  it('a wrong password or an unknown user gets the login form again (401), and no code', async () => {
    await assert.rejects(userToken(idp, client, { username: 'reader', password: 'wrong-password' }), /answered 401/);
    await assert.rejects(userToken(idp, client, { username: 'nobody', password: 'reader-password' }), /answered 401/);
  });

  it('a service’s token carries its permissions; a client’s own lifetime is kept', async () => {
    const svc = decodeJwt(await serviceToken(idp.tokenUrl, 'svc', 'svc-secret-0123'));
    assert.deepEqual(svc.permissions, ['default:write']);
    assert.equal(svc.exp! - svc.iat!, 3_600);
    const brief = decodeJwt(await serviceToken(idp.tokenUrl, 'brief', 'brief-secret-01'));
    assert.equal(brief.exp! - brief.iat!, 2);
    await assert.rejects(serviceToken(idp.tokenUrl, 'svc', 'not-the-secret'), /answered 401/);
  });

  it('serves https itself with the certificate and key its file names (an issuer off loopback)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payflows-idp-tls-'));
    const tls = makeCertificates(join(dir, 'certs'));
    const port = await freePort();
    const issuer = `https://localhost:${port}`;
    const config = (keyFile: string) => {
      const file = join(dir, 'idp.json');
      writeFileSync(
        file,
        JSON.stringify({
          issuer,
          port,
          audience: 'api://payflows',
          tls: { certFile: tls.serverCert, keyFile },
          users: [reader],
          webClients: [],
          serviceClients: [],
        }),
      );
      return file;
    };
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/stand-in-idp/main.ts', config(tls.serverKey)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      while (!out.includes('stand-in identity provider listening')) await once(child.stdout, 'data');
      const discovery = await new Promise<{ issuer: string; jwks_uri: string }>((resolve, reject) =>
        get(`${issuer}/.well-known/openid-configuration`, { ca: readFileSync(tls.caCert) }, (res) => {
          let body = '';
          res.on('data', (d: Buffer) => (body += d.toString()));
          res.on('end', () => resolve(JSON.parse(body) as { issuer: string; jwks_uri: string }));
        }).on('error', reject),
      );
      assert.equal(discovery.issuer, issuer);
      assert.equal(discovery.jwks_uri, `${issuer}/jwks`);
    } finally {
      child.kill();
    }
    const missing = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'src/stand-in-idp/main.ts', config(join(dir, 'no-such.key'))],
      { encoding: 'utf8', timeout: 30_000 },
    );
    assert.equal(missing.status, 78, missing.stderr);
    assert.match(missing.stderr, /tls\.keyFile in .*idp\.json: ENOENT/);
  });

  it('refuses to start on a bad configuration file, naming each field (exit 78)', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'payflows-idp-')), 'idp.json');
    writeFileSync(
      file,
      JSON.stringify({
        issuer: 'http://idp.example.com',
        port: 1,
        audience: 'payflows',
        users: [],
        webClients: [],
        serviceClients: [],
      }),
    );
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/stand-in-idp/main.ts', file], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    assert.equal(run.status, 78, run.stderr);
    assert.match(run.stderr, /issuer: must be https:\/\//);
    assert.match(run.stderr, /audience: must be an absolute URI/);
    assert.match(run.stderr, /users: /);
  });
});
