import assert from 'node:assert/strict';
import { createDecipheriv, createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { describe, it } from 'node:test';
import type { Payload } from '@temporalio/common';
import proto from '@temporalio/proto';
import { EncryptionCodec } from '../../src/temporal/codec.js';

// The payload format's test vectors (schemas/payload-vectors.json) hold both ways: read from
// docs/payload-format.md alone (node's AES-256-GCM and the Payload protobuf, no product code), as
// another language would, and by the product's codec, which also makes them again from the keys
// and nonces given. The refusals are refused.

type JsonPayload = { metadata: Record<string, string>; data: string };
const file = JSON.parse(readFileSync('schemas/payload-vectors.json', 'utf8')) as {
  keys: Record<string, { key: string; keyId: string }>;
  vectors: Array<{ name: string; key: string; iv: string; plain: JsonPayload; encrypted: JsonPayload }>;
  refused: Array<{ name: string; key: string; encrypted: JsonPayload }>;
};
const fromJson = (p: JsonPayload): Payload => ({
  metadata: Object.fromEntries(Object.entries(p.metadata).map(([k, v]) => [k, Buffer.from(v, 'base64')])),
  data: Buffer.from(p.data, 'base64'),
});
const toJson = (p: Payload): JsonPayload => ({
  metadata: Object.fromEntries(
    Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v ?? new Uint8Array()).toString('base64')]),
  ),
  data: Buffer.from(p.data ?? new Uint8Array()).toString('base64'),
});
const keyOf = (name: string) => Buffer.from(file.keys[name]!.key, 'base64');
const text = (b64: string) => Buffer.from(b64, 'base64').toString('utf8');

describe('the payload format’s test vectors', () => {
  it('each key id is the first 12 hex digits of the key’s SHA-256', () => {
    for (const { key, keyId } of Object.values(file.keys))
      assert.equal(keyId, createHash('sha256').update(Buffer.from(key, 'base64')).digest('hex').slice(0, 12));
  });

  it('decrypt by the spec alone: AES-256-GCM, nonce first, tag last, a serialized Payload inside, raw DEFLATE first when marked', () => {
    assert.ok(file.vectors.length >= 4);
    assert.equal(file.vectors.filter((v) => v.encrypted.metadata.compression !== undefined).length, 1);
    for (const v of file.vectors) {
      assert.equal(text(v.encrypted.metadata.encoding!), 'binary/encrypted', v.name);
      assert.equal(text(v.encrypted.metadata['encryption-key-id']!), file.keys[v.key]!.keyId, v.name);
      const data = Buffer.from(v.encrypted.data, 'base64');
      assert.deepEqual(data.subarray(0, 12), Buffer.from(v.iv, 'base64'), `${v.name}: the nonce comes first`);
      const decipher = createDecipheriv('aes-256-gcm', keyOf(v.key), data.subarray(0, 12));
      decipher.setAuthTag(data.subarray(data.length - 16));
      const mark = v.encrypted.metadata.compression;
      if (mark !== undefined) {
        assert.equal(text(mark), 'deflate-raw', v.name);
        decipher.setAAD(Buffer.from(mark, 'base64'));
      }
      const opened = Buffer.concat([decipher.update(data.subarray(12, data.length - 16)), decipher.final()]);
      const inner = mark === undefined ? opened : inflateRawSync(opened);
      if (mark !== undefined)
        assert.ok(inner.length >= 4096, `${v.name}: only payloads of 4 KiB and over are compressed`);
      const payload = proto.temporal.api.common.v1.Payload.decode(inner);
      assert.deepEqual(toJson(payload as Payload), v.plain, v.name);
    }
  });

  it('the codec reads every vector, with the previous key given after a rotation, and makes each again', async () => {
    const codec = new EncryptionCodec(keyOf('current'), [keyOf('previous')]);
    for (const v of file.vectors) {
      const [decoded] = await codec.decode([fromJson(v.encrypted)]);
      assert.deepEqual(toJson(decoded!), v.plain, v.name);
      const fixed = new EncryptionCodec(keyOf(v.key), [], () => Buffer.from(v.iv, 'base64'));
      const [encoded] = await fixed.encode([fromJson(v.plain)]);
      assert.deepEqual(toJson(encoded!), v.encrypted, v.name);
    }
  });

  it('refuses an altered payload, a key it does not have, data too short to hold nonce and tag, an unknown compression and a removed mark, naming why', async () => {
    const codec = new EncryptionCodec(keyOf('current'), [keyOf('previous')]);
    assert.deepEqual(
      file.refused.map((r) => r.name),
      [
        'one bit of the ciphertext altered',
        'a key id no key given has',
        'data shorter than a nonce and a tag',
        'a compression no reader knows',
        'the compression mark removed',
      ],
    );
    const [altered, unknown, short, unknownCompression, unmarked] = file.refused;
    await assert.rejects(codec.decode([fromJson(unknownCompression!.encrypted)]), /compressed with "zstd"/);
    await assert.rejects(codec.decode([fromJson(unmarked!.encrypted)]), /does not authenticate: it was altered/);
    // One byte short of the least an encrypted payload holds (28: nonce and tag around an empty ciphertext).
    assert.equal(Buffer.from(short!.encrypted.data, 'base64').length, 27);
    await assert.rejects(
      codec.decode([fromJson(short!.encrypted)]),
      /is 27 bytes, shorter than its 12-byte nonce and 16-byte tag/,
    );
    await assert.rejects(codec.decode([fromJson(altered!.encrypted)]), /does not authenticate: it was altered/);
    await assert.rejects(
      codec.decode([fromJson(unknown!.encrypted)]),
      /key 000000000000, which this process does not have/,
    );
    // Without the previous key, the rotated vector is one this process cannot read.
    const rotated = file.vectors.find((v) => v.key === 'previous')!;
    await assert.rejects(
      new EncryptionCodec(keyOf('current')).decode([fromJson(rotated.encrypted)]),
      /PAYLOAD_PREVIOUS_KEYS/,
    );
  });
});
