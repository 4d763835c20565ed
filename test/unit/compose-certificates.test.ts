import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { writeAdminToken } from '../../deploy/compose/admin-token.js';
import {
  CERT_WITH_KEY,
  COMPOSE_TLS_DAYS,
  COMPOSE_TLS_NAMES,
  composeCertificates,
} from '../../deploy/compose/certificates.js';
import { inProcessIdp } from '../helpers/sign-in.js';

// docker-compose.yml's one-shot services from the Dockerfile's compose-tools stage, run here as
// compose runs them (no Docker engine here): the certificates of the stack's https and TLS doors
// (scripts/lib/tls.ts with compose's names), and the admin's token for the namespace's set-up.

describe("compose's certificates", () => {
  const dir = mkdtempSync(join(tmpdir(), 'payflows-compose-certs-'));

  it('a CA and a server certificate for every name compose reaches a door by, verified by openssl', () => {
    assert.equal(composeCertificates(dir), 'made');
    const verified = execFileSync('openssl', ['verify', '-CAfile', 'ca.pem', 'server.pem'], {
      cwd: dir,
      encoding: 'utf8',
    });
    assert.match(verified, /server\.pem: OK/);
    const cert = new X509Certificate(readFileSync(join(dir, 'server.pem')));
    const names = cert.subjectAltName!.split(', ');
    for (const name of COMPOSE_TLS_NAMES)
      assert.ok(names.includes(/^[\d.]+$/.test(name) ? `IP Address:${name}` : `DNS:${name}`), name);
    const days = (new Date(cert.validTo).getTime() - Date.now()) / 86_400_000;
    assert.ok(days > COMPOSE_TLS_DAYS - 1, `valid ${days.toFixed(0)} days`);
    // HAProxy's file: the certificate and its key, owner-only.
    const both = readFileSync(join(dir, CERT_WITH_KEY), 'utf8');
    assert.match(both, /BEGIN CERTIFICATE[\s\S]*BEGIN PRIVATE KEY/);
    assert.equal(statSync(join(dir, CERT_WITH_KEY)).mode & 0o077, 0);
  });

  it('keeps them on the next start, and makes them anew near their end', () => {
    const ca = readFileSync(join(dir, 'ca.pem'), 'utf8');
    assert.equal(composeCertificates(dir), 'kept');
    assert.equal(readFileSync(join(dir, 'ca.pem'), 'utf8'), ca, 'the CA the browser trusts stays');
    const nearTheEnd = new Date(Date.now() + (COMPOSE_TLS_DAYS - 10) * 86_400_000);
    assert.equal(composeCertificates(dir, nearTheEnd), 'made');
    assert.notEqual(readFileSync(join(dir, 'ca.pem'), 'utf8'), ca);
  });
});

describe("compose's admin token", () => {
  let idp: Awaited<ReturnType<typeof inProcessIdp>>;
  const dir = mkdtempSync(join(tmpdir(), 'payflows-compose-token-'));
  const admin = { clientId: 'payflows-admin', clientSecret: 'admin-secret-0123', permissions: ['default:admin'] };
  before(async () => {
    idp = await inProcessIdp({ audience: 'api://payflows', users: [], webClients: [], serviceClients: [admin] });
  });
  after(async () => idp?.close());
  const env = (secret: string) => ({
    TEMPORAL_OAUTH_TOKEN_URL: idp.tokenUrl,
    TEMPORAL_OAUTH_CLIENT_ID: admin.clientId,
    TEMPORAL_OAUTH_CLIENT_SECRET: secret,
  });

  it("writes the admin client's token, owner-only", async () => {
    const file = join(dir, 'token');
    await writeAdminToken(env(admin.clientSecret), file);
    assert.deepEqual(decodeJwt(readFileSync(file, 'utf8')).permissions, ['default:admin']);
    assert.equal(statSync(file).mode & 0o077, 0);
  });

  it('a refused secret fails naming the settings, and writes nothing', async () => {
    const file = join(dir, 'refused');
    await assert.rejects(writeAdminToken(env('not-the-secret'), file), /TEMPORAL_OAUTH_CLIENT_SECRET/);
    assert.throws(() => statSync(file), /ENOENT/);
    await assert.rejects(writeAdminToken({}, file), /set TEMPORAL_OAUTH_TOKEN_URL/);
  });

  it('waits for a provider that does not answer yet, then says so', async () => {
    const started = Date.now();
    const unreachable = { ...env(admin.clientSecret), TEMPORAL_OAUTH_TOKEN_URL: 'http://127.0.0.1:9/token' };
    await assert.rejects(
      writeAdminToken(unreachable, join(dir, 'late'), { waitMs: 1_500 }),
      /check the URL and that the provider runs/,
    );
    assert.ok(Date.now() - started >= 1_500, 'asked again until the wait was over');
  });
});
