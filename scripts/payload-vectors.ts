import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import type { Payload } from '@temporalio/common';
import { EncryptionCodec } from '../src/temporal/codec.js';

// schemas/payload-vectors.json: the payload format's test vectors (docs/payload-format.md), made
// from fixed keys and nonces by the codec itself. `--check` fails when the file differs from what
// the codec makes now (lint runs it), so a change to the format cannot pass unnoticed.

const FILE = 'schemas/payload-vectors.json';
const b64 = (bytes: Uint8Array | null | undefined) => Buffer.from(bytes ?? new Uint8Array()).toString('base64');
const bytesOf = (seed: string, n: number) => createHash('sha256').update(seed).digest().subarray(0, n);
const te = new TextEncoder();

/** A payload as Temporal's JSON form writes it (the codec server's bodies): bytes in base64. */
const asJson = (p: Payload) => ({
  metadata: Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k, b64(v)])),
  data: b64(p.data),
});

const keys = {
  current: bytesOf('payflows payload vector key: current', 32),
  previous: bytesOf('payflows payload vector key: previous', 32),
};
const plain: Array<{ name: string; payload: Payload; key: keyof typeof keys }> = [
  {
    name: 'a JSON value (a wallet deposit)',
    payload: {
      metadata: { encoding: te.encode('json/plain') },
      data: te.encode('{"walletId":"WA_VECTOR1","currency":"BTC","amount":"0.12345678"}'),
    },
    key: 'current',
  },
  {
    name: 'null',
    payload: { metadata: { encoding: te.encode('binary/null') }, data: new Uint8Array() },
    key: 'current',
  },
  {
    name: 'written under the previous key, read after a rotation',
    payload: { metadata: { encoding: te.encode('json/plain') }, data: te.encode('"kyc:AC_VECTOR2"') },
    key: 'previous',
  },
  {
    // 4 KiB and over: compressed (raw DEFLATE) before it is encrypted, and marked so.
    name: 'a large JSON value (a carried ledger), compressed',
    payload: {
      metadata: { encoding: te.encode('json/plain') },
      data: te.encode(
        JSON.stringify({
          walletId: 'WA_VECTOR3',
          settled: Object.fromEntries(
            Array.from({ length: 120 }, (_, i) => [
              `TR_VECTOR${String(i).padStart(4, '0')}`,
              ['BTC', `0.${String(i + 1).padStart(8, '0')}`, 'CONFIRMED', 1_767_225_600_000 + i * 60_000],
            ]),
          ),
        }),
      ),
    },
    key: 'current',
  },
];

export async function makeVectors() {
  const vectors = [];
  for (const [i, v] of plain.entries()) {
    const iv = bytesOf(`payflows payload vector nonce ${i}`, 12);
    const [sealed] = await new EncryptionCodec(keys[v.key], [], () => iv).encode([v.payload]);
    vectors.push({ name: v.name, key: v.key, iv: b64(iv), plain: asJson(v.payload), encrypted: asJson(sealed!) });
  }
  const first = vectors[0]!.encrypted;
  const compressed = vectors.find((v) => v.encrypted.metadata.compression !== undefined)!.encrypted;
  const { compression: _mark, ...unmarked } = compressed.metadata;
  const altered = Buffer.from(first.data, 'base64');
  altered[20]! ^= 0x01;
  return {
    $comment:
      'docs/payload-format.md: each vector decrypts with its key to its plain payload, and encrypting the plain payload with the key and iv gives the encrypted one; each refusal must be refused.',
    format: 'binary/encrypted',
    keys: Object.fromEntries(
      Object.entries(keys).map(([name, key]) => [name, { key: b64(key), keyId: new EncryptionCodec(key).keyId }]),
    ),
    vectors,
    refused: [
      {
        name: 'one bit of the ciphertext altered',
        key: 'current',
        encrypted: { ...first, data: altered.toString('base64') },
      },
      {
        name: 'a key id no key given has',
        key: 'current',
        encrypted: { ...first, metadata: { ...first.metadata, 'encryption-key-id': b64(te.encode('000000000000')) } },
      },
      {
        // One byte short of the least a payload holds: a 12-byte nonce and a 16-byte tag around nothing.
        name: 'data shorter than a nonce and a tag',
        key: 'current',
        encrypted: { ...first, data: Buffer.from(first.data, 'base64').subarray(0, 27).toString('base64') },
      },
      {
        name: 'a compression no reader knows',
        key: 'current',
        encrypted: { ...compressed, metadata: { ...compressed.metadata, compression: b64(te.encode('zstd')) } },
      },
      {
        // The mark is the associated data: without it the tag does not verify.
        name: 'the compression mark removed',
        key: 'current',
        encrypted: { ...compressed, metadata: unmarked },
      },
    ],
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const text = `${JSON.stringify(await makeVectors(), null, 2)}\n`;
  if (process.argv.includes('--check')) {
    if (readFileSync(FILE, 'utf8') !== text) {
      console.error(`${FILE} is not what the codec makes now: run \`npm run schemas\` and read the difference`);
      process.exit(1);
    }
  } else writeFileSync(FILE, text);
}
