import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { defaultPayloadConverter } from '@temporalio/common';
import { request } from 'undici';
import { EncryptionCodec } from '../../src/temporal/codec.js';
import { createCodecServer } from '../../src/temporal/codec-server.js';

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
    assert.deepEqual(defaultPayloadConverter.fromPayload((await rotated.decode([enc!]))[0]!), secret, 'an old key still reads after a rotation');
    const plain = payload({ a: 1 });
    assert.deepEqual(await codec.decode([plain]), [plain]);
  });

  it('the codec server decodes for the Web UI, answers its CORS preflight, and refuses nonsense', async () => {
    const app = createCodecServer(codec, { allowedOrigins: ['http://127.0.0.1:8233'] });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const a = app.server.address();
    const url = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
    try {
      const [enc] = await codec.encode([payload(secret)]);
      const wire = { payloads: [{ metadata: Object.fromEntries(Object.entries(enc!.metadata!).map(([k, v]) => [k, Buffer.from(v!).toString('base64')])), data: Buffer.from(enc!.data!).toString('base64') }] };
      const res = await request(`${url}/decode`, { method: 'POST', headers: { 'content-type': 'application/json', origin: 'http://127.0.0.1:8233' }, body: JSON.stringify(wire) });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['access-control-allow-origin'], 'http://127.0.0.1:8233');
      const out = (await res.body.json()) as { payloads: Array<{ data: string }> };
      assert.deepEqual(JSON.parse(Buffer.from(out.payloads[0]!.data, 'base64').toString()), secret);
      const pre = await request(`${url}/decode`, { method: 'OPTIONS', headers: { origin: 'http://127.0.0.1:8233', 'access-control-request-method': 'POST' } });
      assert.equal(pre.statusCode, 204);
      await pre.body.dump();
      const other = await request(`${url}/decode`, { method: 'OPTIONS', headers: { origin: 'http://evil.example.test' } });
      assert.equal(other.headers['access-control-allow-origin'], undefined);
      await other.body.dump();
      const bad = await request(`${url}/decode`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"payloads": 3}' });
      assert.equal(bad.statusCode, 400);
      await bad.body.dump();
    } finally {
      await app.close();
    }
  });
});
