import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { inProcessIdp, serviceToken, userToken } from '../helpers/sign-in.js';

// The stand-in identity provider of the cluster (src/stand-in-idp/): its users sign in with their
// password only, tokens carry each one's permissions for the one audience, a client's own token
// lifetime is kept, and a bad configuration file refuses to start naming the field.

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
