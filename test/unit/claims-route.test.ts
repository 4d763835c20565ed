import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { request } from 'undici';
import { LocalClaimStore } from '../../src/claims/store.js';
import { valueRef, documentRef } from '../../workflows/kyc/messages.schema.js';
import { registerClaimsRoute } from '../../src/temporal/claims-route.js';
import { EncryptionCodec } from '../../src/temporal/codec.js';
import { createCodecServer } from '../../src/temporal/codec-server.js';
import { freePort } from '../../src/temporal/ports.js';
import { inProcessIdp, userToken } from '../helpers/sign-in.js';

// POST /claims beside the codec server: a backend in another language stores a personal value or
// a document and gets the ClaimRef its messages carry (docs/other-languages.md). Only with the
// codec server's bearer token; bad input is refused with the field named, and nothing is stored.

const TOKEN = 'tok-claims-0123456789abcdef';
const UI = 'http://127.0.0.1:8080';
const PNG = Buffer.from('89504e470d0a1a0a', 'hex');

describe('the claims endpoint (POST /claims)', () => {
  let dir: string;
  let store: LocalClaimStore;
  let url: string;
  let close: () => Promise<void>;
  const key = Buffer.alloc(32, 9);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'payflows-claims-route-'));
    store = new LocalClaimStore(dir, { key });
    const port = await freePort();
    const host = `127.0.0.1:${port}`;
    const access = { allowedOrigins: [UI], allowedHosts: [host], token: TOKEN };
    const app = createCodecServer(new EncryptionCodec(Buffer.alloc(32, 7)), access);
    registerClaimsRoute(app, { store }, access);
    await app.listen({ port, host: '127.0.0.1' });
    url = `http://${host}`;
    close = () => app.close();
  });
  after(async () => {
    await close?.();
    rmSync(dir, { recursive: true, force: true });
  });

  const post = async (body: unknown, headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }) => {
    const res = await request(`${url}/claims`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: res.statusCode, json: (await res.body.json()) as Record<string, unknown> };
  };
  /** A browser's session cookie, signed in at /session. */
  const signIn = async () => {
    const res = await request(`${url}/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `token=${TOKEN}`,
    });
    await res.body.dump();
    const cookie = String(res.headers['set-cookie']).split(';')[0]!;
    assert.match(cookie, /^payflows_codec_session=/);
    return cookie;
  };
  const stored = () => readdirSync(dir).filter((f) => /^[0-9a-f]{64}$/.test(f)).length;

  it('stores a personal value and answers a keyed reference that the store resolves to it', async () => {
    const { status, json } = await post({ kind: 'value', value: '078-05-1120', subject: 'AC_PYTHON1' });
    assert.equal(status, 201, JSON.stringify(json));
    const ref = valueRef.parse(json);
    assert.match(ref.ref, /^local:[0-9a-f]{64}$/);
    assert.equal(ref.keyed, true, 'a personal value carries a keyed digest, never a plain SHA-256');
    assert.equal(ref.size, 11);
    assert.equal((await store.get(ref)).toString('utf8'), '078-05-1120');
    assert.equal(await store.eraseSubject('AC_PYTHON1'), 1, 'stored under its subject, so that an erasure finds it');
  });

  it('stores a document with its MIME type', async () => {
    const { status, json } = await post({ kind: 'document', contentType: 'image/png', data: PNG.toString('base64') });
    assert.equal(status, 201, JSON.stringify(json));
    const ref = documentRef.parse(json);
    assert.equal(ref.keyed, undefined);
    assert.deepEqual(await store.get(ref), PNG);
  });

  it('refuses a caller without the bearer token, a wrong one, and a browser session alone; nothing stored', async () => {
    const before = stored();
    const value = { kind: 'value', value: '078-05-1120' };
    // A browser signed in at /session may have payloads decoded, but stores no claims.
    const cookie = await signIn();
    const callers: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer not-the-token-at-all' },
      { origin: UI, cookie },
    ];
    for (const headers of callers) {
      const { status, json } = await post(value, headers);
      assert.equal(status, 401, JSON.stringify(headers));
      assert.match(String(json.error), /Bearer/);
    }
    assert.equal(stored(), before);
  });

  it("refuses a browser session's request before reading its body", async () => {
    const cookie = await signIn();
    // 10 MB announced, 1 KB sent: an answer can only come before the body is read.
    const socket = connect(Number(new URL(url).port), '127.0.0.1');
    let timer: NodeJS.Timeout | undefined;
    const answer = new Promise<string>((resolve, reject) => {
      let text = '';
      socket.on('data', (d: Buffer) => {
        text += d.toString();
        if (text.includes('\r\n\r\n')) resolve(text);
      });
      socket.on('error', reject);
      timer = setTimeout(() => reject(new Error(`no answer within 5 s while the body was pending: ${text}`)), 5_000);
    });
    socket.write(
      `POST /claims HTTP/1.1\r\nHost: ${new URL(url).host}\r\nOrigin: ${UI}\r\nCookie: ${cookie}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${10 * 1024 * 1024}\r\n\r\n` +
        `{"kind":"document","contentType":"image/png","data":"${'A'.repeat(1024)}`,
    );
    try {
      assert.match(await answer, /^HTTP\/1\.1 401 /);
    } finally {
      clearTimeout(timer);
      socket.destroy();
    }
  });

  it('refuses bad input naming the field, and stores nothing', async () => {
    const before = stored();
    const cases: Array<[unknown, string, RegExp]> = [
      [{ kind: 'value', value: '   ' }, 'value', /a value is required/],
      [{ kind: 'value', value: 'x'.repeat(1025) }, 'value', /at most 1024 bytes/],
      [{ kind: 'value' }, 'value', /./],
      [{ kind: 'ssn', value: '078-05-1120' }, 'kind', /"value".*"document"/],
      [{ value: '078-05-1120' }, 'kind', /"value".*"document"/],
      [{ kind: 'value', value: '078-05-1120', subject: 'has spaces' }, 'subject', /business key/],
      // An email address or the SSN itself would sit in the claim's metadata in plain text.
      [{ kind: 'value', value: '078-05-1120', subject: 'jane@example.com' }, 'subject', /never personal data/],
      [{ kind: 'value', value: '078-05-1120', subject: '078-05-1120' }, 'subject', /never personal data/],
      [{ kind: 'document', contentType: 'text/html', data: PNG.toString('base64') }, 'contentType', /image\/png/],
      [{ kind: 'document', contentType: 'image/png', data: 'not base64!' }, 'data', /base64/],
      [{ kind: 'document', contentType: 'image/png', data: '' }, 'data', /empty/],
      // Node decodes these leniently (AAAAA as 3 bytes): a truncated or padded-away document.
      [{ kind: 'document', contentType: 'image/png', data: 'AAAAA' }, 'data', /canonical base64/],
      [
        { kind: 'document', contentType: 'image/png', data: PNG.toString('base64').replace(/=+$/, '') },
        'data',
        /canonical base64/,
      ],
      [{ kind: 'document', contentType: 'image/png', data: 'AAB=' }, 'data', /canonical base64/],
    ];
    for (const [body, field, message] of cases) {
      const { status, json } = await post(body);
      assert.equal(status, 400, JSON.stringify(body));
      assert.equal(json.field, field, JSON.stringify(json));
      assert.match(String(json.error), message);
    }
    assert.equal((await post('{"kind":')).status, 400, 'a body that is not JSON');
    assert.equal(stored(), before, 'nothing stored');
  });

  it('refuses a subject with an SSN anywhere in it, however separated, and stores nothing that names it', async () => {
    const before = stored();
    const subjects = [
      'SSN-078-05-1120',
      '123.45.6789',
      'AC_078_05_1120',
      'person:078:05:1120',
      'AC_1.078-05-1120',
      'ssn-078051120',
      '078051120',
    ];
    for (const subject of subjects) {
      for (const body of [
        { kind: 'value', value: 'a value', subject },
        { kind: 'document', contentType: 'image/png', data: PNG.toString('base64'), subject },
      ]) {
        const { status, json } = await post(body);
        assert.equal(status, 400, `${subject}: ${JSON.stringify(json)}`);
        assert.equal(json.field, 'subject', JSON.stringify(json));
        assert.match(String(json.error), /^subject: .*never personal data.*SSN/, JSON.stringify(json));
      }
    }
    assert.equal(stored(), before, 'nothing stored');
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' });
    const written = files.map((f) => join(dir, f)).filter((p) => statSync(p).isFile());
    for (const subject of subjects)
      for (const path of written) assert.ok(!readFileSync(path, 'utf8').includes(subject), `${subject} in ${path}`);
  });

  it('takes business keys whose digits are no SSN: provider ids, dates and order numbers', async () => {
    // A provider id is 11 characters after its prefix, digits among them: nine in a row is an id, not an SSN.
    for (const subject of ['AC_PYTHON1', 'AC_A23456789B', 'PM_23456789ABC', 'ORDER-2024-05-12345', 'order:1234-56-789'])
      assert.equal((await post({ kind: 'value', value: 'a value', subject })).status, 201, subject);
  });

  /** One POST /claims to a codec server of its own with `access` and `claims`. */
  async function postTo(
    token: string | undefined,
    claims: Parameters<typeof registerClaimsRoute>[1],
    headers: Record<string, string>,
  ) {
    const port = await freePort();
    const host = `127.0.0.1:${port}`;
    const access = { allowedOrigins: [UI], allowedHosts: [host], ...(token ? { token } : {}) };
    const app = createCodecServer(new EncryptionCodec(Buffer.alloc(32, 7)), access);
    registerClaimsRoute(app, claims, access);
    await app.listen({ port, host: '127.0.0.1' });
    try {
      const res = await request(`http://${host}/claims`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ kind: 'value', value: '078-05-1120' }),
      });
      return { status: res.statusCode, error: ((await res.body.json()) as { error: string }).error };
    } finally {
      await app.close();
    }
  }

  it('answers 503 naming the settings when the codec server has no claim store', async () => {
    const { status, error } = await postTo(
      TOKEN,
      { unavailable: 'this codec server has no claim store: give it CLAIM_ENCRYPTION_KEY' },
      { authorization: `Bearer ${TOKEN}` },
    );
    assert.equal(status, 503);
    assert.match(error, /CLAIM_ENCRYPTION_KEY/);
  });

  it('refuses a signed-in user’s access token, even one that may decode, and stores nothing', async () => {
    const client = { clientId: 'temporal-ui', clientSecret: 'ui-secret-0123', redirectUri: `${UI}/auth/sso/callback` };
    const user = {
      username: 'operator',
      password: 'operator-password',
      permissions: ['default:write', 'default:decode'],
    };
    const idp = await inProcessIdp({
      audience: 'api://payflows',
      users: [user],
      webClients: [{ ...client, redirectUris: [client.redirectUri] }],
      serviceClients: [],
    });
    const port = await freePort();
    const host = `127.0.0.1:${port}`;
    const signIn = {
      issuer: idp.issuer,
      audience: 'api://payflows',
      roleClaim: 'permissions',
      decodeRole: '{namespace}:decode',
    };
    const access = { allowedOrigins: [UI], allowedHosts: [host], token: TOKEN, namespace: 'default', signIn };
    const app = createCodecServer(new EncryptionCodec(Buffer.alloc(32, 7)), access);
    registerClaimsRoute(app, { store }, access);
    await app.listen({ port, host: '127.0.0.1' });
    try {
      const token = await userToken(idp, client, user);
      const before = stored();
      const res = await request(`http://${host}/claims`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-namespace': 'default' },
        body: JSON.stringify({ kind: 'value', value: '078-05-1120' }),
      });
      assert.equal(res.statusCode, 401);
      assert.match(String(((await res.body.json()) as { error: string }).error), /for a backend only/);
      assert.equal(stored(), before);
    } finally {
      await app.close();
      await idp.close();
    }
  });

  it('stores nothing on a codec server without a token (the embedded stack lets the UI in by its Origin)', async () => {
    const before = stored();
    const { status, error } = await postTo(undefined, { store }, { origin: UI });
    assert.equal(status, 403);
    assert.match(error, /CODEC_SERVER_TOKEN/);
    assert.equal(stored(), before);
  });
});
