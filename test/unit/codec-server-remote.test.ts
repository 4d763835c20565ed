import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { request } from 'undici';
import { EncryptionCodec } from '../../src/temporal/codec.js';
import { createCodecServer } from '../../src/temporal/codec-server.js';
import { freePort } from '../../src/temporal/ports.js';

// The codec server as the Go SDK's converter.NewRemotePayloadCodec calls it: the body is Go's
// encoding/json of temporal.api.common.v1.Payloads (bytes in base64, an empty `data` left out),
// the namespace and the credential in headers that the caller's ModifyRequest adds
// (docs/payload-format.md). examples/go-backend does this against the cluster.

const TOKEN = 'tok-codec-remote-0123456789';
const NAMESPACE = 'payflows';
const b64 = (text: string) => Buffer.from(text).toString('base64');
// As Go marshals them: a binary/null payload has no data at all.
const goBody = {
  payloads: [
    { metadata: { encoding: b64('binary/null') } },
    { metadata: { encoding: b64('json/plain') }, data: b64('{"name":"alice","pollIntervalMs":5000}') },
  ],
};
type Wire = { payloads: Array<{ metadata: Record<string, string>; data?: string }> };

describe('codec server: the Go SDK remote codec request', () => {
  let url = '';
  let close: () => Promise<unknown>;
  before(async () => {
    const port = await freePort();
    const app = createCodecServer(new EncryptionCodec(Buffer.alloc(32, 9)), {
      allowedOrigins: [],
      allowedHosts: [`127.0.0.1:${port}`],
      token: TOKEN,
      namespace: NAMESPACE,
    });
    await app.listen({ port, host: '127.0.0.1' });
    url = `http://127.0.0.1:${port}`;
    close = () => app.close();
  });
  after(async () => close?.());

  const call = async (op: 'encode' | 'decode', body: unknown, headers: Record<string, string>) => {
    const res = await request(`${url}/${op}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return { status: res.statusCode, text: await res.body.text() };
  };
  const goHeaders = { 'x-namespace': NAMESPACE, authorization: `Bearer ${TOKEN}` };

  it('encodes what Go sends, and decodes it back to the same payloads', async () => {
    const encoded = await call('encode', goBody, goHeaders);
    assert.equal(encoded.status, 200, encoded.text);
    const sealed = JSON.parse(encoded.text) as Wire;
    assert.equal(sealed.payloads.length, 2, 'one answer per payload: the Go codec checks the count');
    for (const p of sealed.payloads) {
      assert.equal(Buffer.from(p.metadata.encoding!, 'base64').toString(), 'binary/encrypted');
      assert.ok(
        !Buffer.from(p.data ?? '', 'base64')
          .toString()
          .includes('alice'),
        'encrypted',
      );
    }
    const decoded = await call('decode', sealed, goHeaders);
    assert.equal(decoded.status, 200, decoded.text);
    const opened = JSON.parse(decoded.text) as Wire;
    assert.deepEqual(
      opened.payloads.map((p) => ({ ...p, data: p.data ?? '' })),
      goBody.payloads.map((p) => ({ ...p, data: 'data' in p ? p.data : '' })),
    );
  });

  it('takes a call that names no namespace: the Temporal CLI sends an empty X-Namespace without --namespace', async () => {
    for (const headers of [{ authorization: `Bearer ${TOKEN}` }, { ...goHeaders, 'x-namespace': '' }]) {
      const r = await call('encode', goBody, headers);
      assert.equal(r.status, 200, r.text);
    }
  });

  it('refuses another namespace, and a call without the credential, decrypting nothing', async () => {
    const sealed = JSON.parse((await call('encode', goBody, goHeaders)).text) as Wire;
    const other = await call('decode', sealed, { ...goHeaders, 'x-namespace': 'default' });
    assert.equal(other.status, 400);
    assert.match(other.text, /X-Namespace default is not this codec server's namespace \(payflows\)/);
    const anonymous = await call('decode', sealed, { 'x-namespace': NAMESPACE });
    assert.equal(anonymous.status, 401);
    for (const refused of [other, anonymous]) assert.ok(!refused.text.includes(b64('{"name"')));
  });
});
