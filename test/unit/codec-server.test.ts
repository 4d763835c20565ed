import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { request } from 'undici';
import { EncryptionCodec } from '../../src/temporal/codec.js';
import {
  codecAccessProblem,
  createCodecServer,
  type CodecServerOptions,
  SESSION_MS,
} from '../../src/temporal/codec-server.js';
import { freePort } from '../../src/temporal/ports.js';

// Who may have payloads decrypted. Outside the embedded stack a credential is always required:
// the bearer token (CLI, scripts) or the session cookie an operator's browser gets by signing in
// once at /session (the Web UI sends it with TEMPORAL_CODEC_INCLUDE_CREDENTIALS=true). An Origin
// header alone is no credential: any local process can send one.

const UI = 'http://127.0.0.1:8080';
const TOKEN = 'tok-codec-0123456789abcdef';
const codec = new EncryptionCodec(Buffer.alloc(32, 7));

/** A codec server with the token on a free loopback port, and the calls a browser or the CLI makes. */
async function serve(options: CodecServerOptions = {}) {
  const port = await freePort();
  const host = `127.0.0.1:${port}`;
  const url = `http://${host}`;
  const live = createCodecServer(codec, { allowedOrigins: [UI], allowedHosts: [host], token: TOKEN }, options);
  await live.listen({ port, host: '127.0.0.1' });

  const secret = async () => {
    const [p] = await codec.encode([
      { metadata: { encoding: Buffer.from('json/plain') }, data: Buffer.from('"123-45-6789"') },
    ]);
    return {
      payloads: [
        {
          metadata: Object.fromEntries(
            Object.entries(p!.metadata!).map(([k, v]) => [k, Buffer.from(v!).toString('base64')]),
          ),
          data: Buffer.from(p!.data!).toString('base64'),
        },
      ],
    };
  };
  const decode = async (headers: Record<string, string>) => {
    const res = await request(`${url}/decode`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(await secret()),
    });
    const text = await res.body.text();
    return { status: res.statusCode, text };
  };
  const signIn = async (token: string, origin = url) => {
    const res = await request(`${url}/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
      body: new URLSearchParams({ token }).toString(),
    });
    await res.body.dump();
    return { status: res.statusCode, cookie: String(res.headers['set-cookie'] ?? '') };
  };
  return { url, decode, signIn, close: () => live.close() };
}

describe('codec server: a credential, always, off the embedded stack', () => {
  let server: Awaited<ReturnType<typeof serve>>;
  let url = '';
  let decode: typeof server.decode;
  let signIn: typeof server.signIn;
  before(async () => {
    server = await serve();
    ({ url, decode, signIn } = server);
  });
  after(async () => server?.close());

  it("the Web UI's Origin alone decrypts nothing: a forged Origin is refused", async () => {
    const r = await decode({ origin: UI });
    assert.equal(r.status, 401);
    assert.ok(!r.text.includes('123-45-6789'));
    assert.match(r.text, /\/session|Bearer/);
  });

  it("the bearer token decrypts (the CLI's --codec-auth)", async () => {
    const r = await decode({ authorization: `Bearer ${TOKEN}` });
    assert.equal(r.status, 200);
    assert.ok(
      Buffer.from((JSON.parse(r.text) as { payloads: Array<{ data: string }> }).payloads[0]!.data, 'base64')
        .toString()
        .includes('123-45-6789'),
    );
  });

  it('signing in at /session gives the browser a cookie that decrypts from the Web UI; a wrong token gets none', async () => {
    const page = await request(`${url}/session`);
    assert.equal(page.statusCode, 200);
    assert.match(await page.body.text(), /<form[^>]*method="post"/i);
    const wrong = await signIn('not-the-token-0000000000');
    assert.equal(wrong.status, 401);
    assert.equal(wrong.cookie, '');
    const ok = await signIn(TOKEN);
    assert.equal(ok.status, 200);
    assert.match(ok.cookie, /HttpOnly/i);
    assert.match(ok.cookie, /SameSite=Strict/i);
    assert.ok(!ok.cookie.includes(TOKEN), 'the cookie is not the token itself');
    const cookie = ok.cookie.split(';')[0]!;
    assert.equal((await decode({ origin: UI, cookie })).status, 200);
    // A cookie made up, or one whose expiry was moved, is refused.
    const [name, value] = cookie.split('=') as [string, string];
    const [, mac] = value.split('.');
    assert.equal((await decode({ origin: UI, cookie: `${name}=${Date.now() + 10 ** 9}.${mac}` })).status, 401);
  });

  it('a page of another origin cannot sign a browser in', async () => {
    assert.equal((await signIn(TOKEN, 'http://evil.example.test')).status, 403);
  });

  it('will not start without a token where Temporal is not the embedded dev server, nor off loopback', () => {
    const access = { allowedOrigins: [UI], allowedHosts: ['127.0.0.1:4030'] };
    assert.match(codecAccessProblem(access, '127.0.0.1', { embedded: false }) ?? '', /CODEC_SERVER_TOKEN/);
    assert.match(codecAccessProblem(access, '0.0.0.0', { embedded: false }) ?? '', /CODEC_SERVER_TOKEN/);
    assert.match(codecAccessProblem(access, '0.0.0.0', { embedded: true }) ?? '', /CODEC_SERVER_TOKEN/);
    assert.equal(
      codecAccessProblem(access, '127.0.0.1', { embedded: true }),
      undefined,
      'npm run dev: loopback, the UI by its Origin',
    );
    assert.equal(codecAccessProblem({ ...access, token: TOKEN }, '0.0.0.0', { embedded: false }), undefined);
  });
});

describe('codec server: a browser session ends at its expiry', () => {
  // The server's clock, moved by the test: a session lasts SESSION_MS (8 hours).
  const clock = { now: 1_800_000_000_000 };
  let server: Awaited<ReturnType<typeof serve>>;
  before(async () => (server = await serve({ now: () => clock.now })));
  after(async () => server?.close());

  it('a correctly signed cookie decrypts until its expiry and is refused after it', async () => {
    const signedIn = await server.signIn(TOKEN);
    assert.equal(signedIn.status, 200);
    const cookie = signedIn.cookie.split(';')[0]!;
    assert.equal((await server.decode({ origin: UI, cookie })).status, 200);
    clock.now += SESSION_MS - 1_000;
    assert.equal((await server.decode({ origin: UI, cookie })).status, 200, 'a second before its expiry');
    clock.now += 2_000;
    // The same cookie, its MAC intact: only its expiry has passed.
    const expired = await server.decode({ origin: UI, cookie });
    assert.equal(expired.status, 401);
    assert.ok(!expired.text.includes('123-45-6789'));
    assert.match(expired.text, /\/session/, 'the refusal says where to sign in again');
    const again = await server.signIn(TOKEN);
    assert.equal((await server.decode({ origin: UI, cookie: again.cookie.split(';')[0]! })).status, 200);
  });
});
