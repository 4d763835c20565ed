import assert from 'node:assert/strict';
import { createCipheriv, randomBytes } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import { describe, it } from 'node:test';
import { defaultPayloadConverter } from '@temporalio/common';
import { request } from 'undici';
import { COMPRESS_FROM_BYTES, EncryptionCodec } from '../../src/temporal/codec.js';
import { freePort } from '../../src/temporal/ports.js';
import { authorised, codecAccessProblem, createCodecServer } from '../../src/temporal/codec-server.js';

const payload = (v: unknown) => defaultPayloadConverter.toPayload(v);
const secret = { link: 'https://verify.example.test/s/3f9a', ssnRef: 'local:abc' };

describe('payload encryption', () => {
  const codec = new EncryptionCodec(randomBytes(32));

  it('encrypts every payload so that nothing of it shows, and decodes it back', async () => {
    const [enc] = await codec.encode([payload(secret)]);
    assert.equal(Buffer.from(enc!.metadata!.encoding!).toString(), 'binary/encrypted');
    assert.equal(Buffer.from(enc!.data!).includes('verify.example.test'), false);
    const [dec] = await codec.decode([enc!]);
    assert.deepEqual(defaultPayloadConverter.fromPayload(dec!), secret);
  });

  it('refuses a payload that was altered, or written with a key it does not have; passes plain ones through', async () => {
    const [enc] = await codec.encode([payload(secret)]);
    const altered = { ...enc!, data: Buffer.from(enc!.data!).map((b, i) => (i === 20 ? b ^ 1 : b)) };
    await assert.rejects(codec.decode([altered]), /altered/);
    await assert.rejects(new EncryptionCodec(randomBytes(32)).decode([enc!]), /PAYLOAD_ENCRYPTION_KEY/);
    const rotated = new EncryptionCodec(randomBytes(32), [(codec as unknown as { key: Buffer }).key]);
    assert.deepEqual(
      defaultPayloadConverter.fromPayload((await rotated.decode([enc!]))[0]!),
      secret,
      'an old key still reads after a rotation',
    );
    const plain = payload({ a: 1 });
    assert.deepEqual(await codec.decode([plain]), [plain]);
  });

  it('refuses data shorter than a nonce and a tag (28 bytes), naming it, rather than reading a nonce or tag from nothing', async () => {
    const [enc] = await codec.encode([payload(secret)]);
    for (const length of [0, 5, 11, 12, 27]) {
      const short = { ...enc!, data: Buffer.from(enc!.data!).subarray(0, length) };
      await assert.rejects(
        codec.decode([short]),
        (err: Error) =>
          err.name === 'CodecError' &&
          err.message.includes(`is ${length} bytes`) &&
          /shorter than its 12-byte nonce and 16-byte tag/.test(err.message),
        `${length} bytes`,
      );
    }
    // 28 bytes is a nonce and a tag around an empty ciphertext: an empty inner payload, which is valid.
    const [empty] = await codec.encode([{}]);
    assert.equal(empty!.data!.length, 28);
    const [inner] = await codec.decode([empty!]);
    assert.deepEqual([inner!.metadata, inner!.data?.length ?? 0], [{}, 0]);
  });

  // The rotation of docs/security.md: first every process gets the new key in PAYLOAD_PREVIOUS_KEYS, then
  // the writing key changes. During the second rollout, processes of both phases share history.
  it('compresses a payload of 4 KiB and over before encrypting it, marks it, and reads it back; smaller ones stay as they were', async () => {
    const ledger = {
      walletId: 'WA_LARGE',
      records: Array.from({ length: 400 }, (_, i) => [
        'BTC',
        `0.${String(i + 1).padStart(8, '0')}`,
        'CONFIRMED',
        1_700_000_000_000 + i,
      ]),
    };
    const large = payload(ledger);
    assert.ok(large.data!.length >= COMPRESS_FROM_BYTES);
    const [enc] = await codec.encode([large]);
    assert.equal(Buffer.from(enc!.metadata!.compression!).toString(), 'deflate-raw');
    assert.ok(enc!.data!.length < large.data!.length / 3, `${enc!.data!.length} bytes for ${large.data!.length}`);
    assert.deepEqual(defaultPayloadConverter.fromPayload((await codec.decode([enc!]))[0]!), ledger);

    const [small] = await codec.encode([payload(secret)]);
    assert.equal(small!.metadata!.compression, undefined, 'a short secret is not compressed');
    // Random bytes do not shrink: encrypted as they are, with no mark.
    const [noise] = await codec.encode([payload(new Uint8Array(randomBytes(8192)))]);
    assert.equal(noise!.metadata!.compression, undefined);
    assert.ok(noise!.data!.length > 8192);
  });

  it('refuses a compressed payload whose mark was removed or changed, and one that opens past its limit, changing nothing', async () => {
    const [enc] = await codec.encode([payload({ rows: Array.from({ length: 600 }, (_, i) => `row ${i}`) })]);
    const { compression: _mark, ...unmarked } = enc!.metadata!;
    await assert.rejects(codec.decode([{ ...enc!, metadata: unmarked }]), /does not authenticate: it was altered/);
    await assert.rejects(
      codec.decode([{ ...enc!, metadata: { ...enc!.metadata, compression: new TextEncoder().encode('zstd') } }]),
      /compressed with "zstd", which this process cannot read \(only deflate-raw\)/,
    );
    const [small] = await codec.encode([payload(secret)]);
    await assert.rejects(
      codec.decode([
        { ...small!, metadata: { ...small!.metadata, compression: new TextEncoder().encode('deflate-raw') } },
      ]),
      /does not authenticate: it was altered/,
      'a mark added to an uncompressed payload',
    );
    // A payload that authenticates (it was made with the key) but inflates past 16 MiB is refused, not opened.
    const bomb = deflateRawSync(Buffer.alloc(17 * 1024 * 1024));
    const key = (codec as unknown as { key: Buffer }).key;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from('deflate-raw'));
    const sealed = Buffer.concat([iv, cipher.update(bomb), cipher.final(), cipher.getAuthTag()]);
    await assert.rejects(
      codec.decode([{ metadata: { ...enc!.metadata }, data: sealed }]),
      /authenticates but does not decompress .*opens past 16777216 bytes/,
    );
    assert.deepEqual(defaultPayloadConverter.fromPayload((await codec.decode([enc!]))[0]!), {
      rows: Array.from({ length: 600 }, (_, i) => `row ${i}`),
    });
  });

  it('rotates in two phases: a key listed as previous but not yet writing reads what the other phase wrote', async () => {
    const [oldKey, newKey] = [randomBytes(32), randomBytes(32)];
    const phase1 = new EncryptionCodec(oldKey, [newKey]);
    const phase2 = new EncryptionCodec(newKey, [oldKey]);
    const [byPhase1] = await phase1.encode([payload(secret)]);
    const [byPhase2] = await phase2.encode([payload({ ...secret, link: 'https://verify.example.test/s/new' })]);
    assert.deepEqual(
      defaultPayloadConverter.fromPayload((await phase2.decode([byPhase1!]))[0]!),
      secret,
      'the new writer reads the old',
    );
    assert.equal(
      (defaultPayloadConverter.fromPayload((await phase1.decode([byPhase2!]))[0]!) as typeof secret).link,
      'https://verify.example.test/s/new',
      'the old writer, with the new key as previous, reads the new',
    );
    // Why phase 1 comes first: a process that has only the old key cannot read the new writer's payloads.
    await assert.rejects(new EncryptionCodec(oldKey).decode([byPhase2!]), /PAYLOAD_PREVIOUS_KEYS/);
    // After the retention, the old key is dropped: the new writer's payloads need nothing else.
    assert.deepEqual(defaultPayloadConverter.fromPayload((await new EncryptionCodec(newKey).decode([byPhase2!]))[0]!), {
      ...secret,
      link: 'https://verify.example.test/s/new',
    });
  });

  const wireOf = async (value: unknown) => {
    const [enc] = await codec.encode([payload(value)]);
    return {
      payloads: [
        {
          metadata: Object.fromEntries(
            Object.entries(enc!.metadata!).map(([k, v]) => [k, Buffer.from(v!).toString('base64')]),
          ),
          data: Buffer.from(enc!.data!).toString('base64'),
        },
      ],
    };
  };
  const UI = 'http://127.0.0.1:8233';

  it('decodes for the Web UI on loopback, answers its CORS preflight, and refuses nonsense', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const live = createCodecServer(codec, { allowedOrigins: [UI], allowedHosts: [`127.0.0.1:${port}`] });
    await live.listen({ port, host: '127.0.0.1' });
    try {
      const res = await request(`${url}/decode`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: UI },
        body: JSON.stringify(await wireOf(secret)),
      });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['access-control-allow-origin'], UI);
      const out = (await res.body.json()) as { payloads: Array<{ data: string }> };
      assert.deepEqual(JSON.parse(Buffer.from(out.payloads[0]!.data, 'base64').toString()), secret);
      const pre = await request(`${url}/decode`, {
        method: 'OPTIONS',
        headers: { origin: UI, 'access-control-request-method': 'POST' },
      });
      assert.equal(pre.statusCode, 204);
      await pre.body.dump();
      const bad = await request(`${url}/decode`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: UI },
        body: '{"payloads": 3}',
      });
      assert.equal(bad.statusCode, 400);
      await bad.body.dump();
      // Without a token, nothing but the UI's origin may call: a script on this machine needs the token.
      const bare = await request(`${url}/decode`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(await wireOf(secret)),
      });
      assert.equal(bare.statusCode, 401);
      await bare.body.dump();
    } finally {
      await live.close();
    }
  });

  it('refuses another origin and a rebound host name, and decrypts nothing for them', async () => {
    const verdict = (headers: Record<string, string>) =>
      authorised({ allowedOrigins: [UI], allowedHosts: ['127.0.0.1:4030'] }, headers);
    assert.deepEqual(verdict({ host: '127.0.0.1:4030', origin: UI }), { ok: true });
    assert.equal(
      (verdict({ host: 'evil.example.test:4030', origin: 'http://evil.example.test:4030' }) as { status: number })
        .status,
      403,
    );
    assert.equal(
      (verdict({ host: '127.0.0.1:4030', origin: 'http://evil.example.test' }) as { status: number }).status,
      403,
    );
    assert.equal((verdict({ origin: UI }) as { status: number }).status, 403);
  });

  it('with CODEC_SERVER_TOKEN, every call needs the bearer token; an empty payload list is fine', async () => {
    const token = 'tok-0123456789abcdef';
    const port = await freePort();
    const live = createCodecServer(codec, { allowedOrigins: [UI], allowedHosts: [`127.0.0.1:${port}`], token });
    await live.listen({ port, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${port}`;
    try {
      const call = async (authorization: string | undefined, body: unknown) => {
        const res = await request(`${url}/decode`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
          body: JSON.stringify(body),
        });
        return { status: res.statusCode, json: (await res.body.json()) as { payloads?: unknown[]; error?: string } };
      };
      assert.equal((await call(undefined, await wireOf(secret))).status, 401);
      assert.equal((await call('Bearer wrong-token-000000000', await wireOf(secret))).status, 401);
      const ok = await call(`bearer ${token}`, await wireOf(secret));
      assert.equal(ok.status, 200);
      // The Temporal CLI sends {} for a query without arguments (protobuf JSON omits an empty list).
      assert.deepEqual(await call(`Bearer ${token}`, {}), { status: 200, json: { payloads: [] } });
    } finally {
      await live.close();
    }
  });

  it('will not listen off loopback without a token', () => {
    assert.match(
      codecAccessProblem({ allowedOrigins: [], allowedHosts: [] }, '0.0.0.0', { embedded: true }) ?? '',
      /CODEC_SERVER_TOKEN/,
    );
    assert.equal(
      codecAccessProblem({ allowedOrigins: [], allowedHosts: [], token: 'x'.repeat(32) }, '0.0.0.0', {
        embedded: false,
      }),
      undefined,
    );
    assert.equal(
      codecAccessProblem({ allowedOrigins: [], allowedHosts: [] }, '127.0.0.1', { embedded: true }),
      undefined,
    );
  });
});
