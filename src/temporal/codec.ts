import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { DataConverter, Payload, PayloadCodec } from '@temporalio/common';
import proto from '@temporalio/proto';
import { ConfigError } from '../config.js';
import { keyFromFile } from '../key-file.js';

// Every payload that leaves a worker or a client (failures' messages and stacks too, through the
// failure converter) is encrypted with AES-256-GCM, so that history holds no personal data or secret
// in plain text. Format: docs/payload-format.md (vectors in schemas/payload-vectors.json). A large
// payload (a wallet's carried ledger) is compressed before it is encrypted: Temporal and the SDK's
// core hold the encoded bytes of a cached run's input, and history stores them twice a run.

const { temporal } = proto; // a CommonJS package: no named exports under ESM
const ENCODING = 'binary/encrypted';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/** Payloads this large and over are compressed; smaller ones are not, so that a short secret's length says nothing. */
export const COMPRESS_FROM_BYTES = 4096;
/** Temporal refuses payloads over 2 MB by default and 4 MB at most: a compressed payload opening past this was made to. */
const INFLATED_LIMIT_BYTES = 16 * 1024 * 1024;
const COMPRESSION = 'deflate-raw';
const te = new TextEncoder();
const td = new TextDecoder();

export class CodecError extends Error {
  override name = 'CodecError';
}

export class EncryptionCodec implements PayloadCodec {
  readonly keyId: string;

  /**
   * `key`: 32 bytes. Older keys can be given too, to read payloads written before a rotation.
   * `iv` draws each payload's nonce: random, except where the test vectors fix it.
   */
  constructor(
    private readonly key: Buffer,
    private readonly previous: Buffer[] = [],
    private readonly iv: () => Buffer = () => randomBytes(NONCE_BYTES),
  ) {
    if (key.length !== 32) throw new CodecError(`the payload key must be 32 bytes, got ${key.length}`);
    this.keyId = keyIdOf(key);
  }

  async encode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => {
      const iv = this.iv();
      const cipher = createCipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
      const serialized = temporal.api.common.v1.Payload.encode(payload).finish();
      const packed = serialized.length >= COMPRESS_FROM_BYTES ? deflateRawSync(serialized) : undefined;
      const compressed = packed !== undefined && packed.length < serialized.length;
      // The mark is the associated data too: removed or added, the payload no longer authenticates.
      if (compressed) cipher.setAAD(te.encode(COMPRESSION));
      const plain = compressed ? packed : serialized;
      const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
      return {
        metadata: {
          encoding: te.encode(ENCODING),
          'encryption-key-id': te.encode(this.keyId),
          ...(compressed ? { compression: te.encode(COMPRESSION) } : {}),
        },
        data: Buffer.concat([iv, sealed, cipher.getAuthTag()]),
      };
    });
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => {
      // Payloads written before encryption (or by another converter) pass through unchanged.
      if (!payload.metadata?.encoding || td.decode(payload.metadata.encoding) !== ENCODING) return payload;
      const keyId = payload.metadata['encryption-key-id'] ? td.decode(payload.metadata['encryption-key-id']) : '';
      const key = [this.key, ...this.previous].find((k) => keyIdOf(k) === keyId);
      if (!key)
        throw new CodecError(
          `payload encrypted with key ${keyId}, which this process does not have; set PAYLOAD_ENCRYPTION_KEY (and PAYLOAD_PREVIOUS_KEYS after a rotation)`,
        );
      const compression = payload.metadata.compression ? td.decode(payload.metadata.compression) : undefined;
      if (compression !== undefined && compression !== COMPRESSION)
        throw new CodecError(
          `payload encrypted with key ${keyId} is compressed with ${JSON.stringify(compression)}, which this process cannot read (only ${COMPRESSION}): it was written by a newer codec or altered`,
        );
      const data = Buffer.from(payload.data ?? new Uint8Array());
      // Shorter than nonce and tag, the slices below would take a short nonce and a short tag from
      // what is there (node takes tags of 4 bytes and up): refused before any is read.
      if (data.length < NONCE_BYTES + TAG_BYTES)
        throw new CodecError(
          `payload encrypted with key ${keyId} is ${data.length} bytes, shorter than its ${NONCE_BYTES}-byte nonce and ${TAG_BYTES}-byte tag: it was altered or cut short`,
        );
      const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, NONCE_BYTES), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
      if (compression !== undefined) decipher.setAAD(te.encode(compression));
      let plain: Buffer;
      try {
        plain = Buffer.concat([decipher.update(data.subarray(NONCE_BYTES, data.length - TAG_BYTES)), decipher.final()]);
      } catch {
        throw new CodecError(`payload encrypted with key ${keyId} does not authenticate: it was altered`);
      }
      return temporal.api.common.v1.Payload.decode(
        compression === undefined ? plain : inflated(plain, keyId),
      ) as Payload;
    });
  }
}

function inflated(packed: Buffer, keyId: string): Buffer {
  try {
    return inflateRawSync(packed, { maxOutputLength: INFLATED_LIMIT_BYTES });
  } catch (e) {
    throw new CodecError(
      `payload encrypted with key ${keyId} authenticates but does not decompress (${e instanceof Error ? e.message : String(e)}): it was written wrongly, or opens past ${INFLATED_LIMIT_BYTES} bytes`,
    );
  }
}

export function keyIdOf(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 12);
}

/**
 * The payload key: PAYLOAD_ENCRYPTION_KEY when set, else the embedded stack's key file. Only the
 * embedded stack makes that file: elsewhere a key of its own would encrypt what no one else can read.
 */
export function loadPayloadKey(opts: { key?: string; keyFile: string; mayCreateKeyFile: boolean }): Buffer {
  if (opts.key) return Buffer.from(opts.key, 'base64');
  const refuse = () =>
    new ConfigError(
      `PAYLOAD_ENCRYPTION_KEY is not set and there is no key file at ${opts.keyFile}: make the key once with \`openssl rand -base64 32\` and give the same value to every process of the deployment`,
    );
  return keyFromFile(opts.keyFile, { format: 'base64', refuse: opts.mayCreateKeyFile ? undefined : refuse });
}

/** The failure converter's module (./failure-converter.ts, or .js once compiled). */
export const FAILURE_CONVERTER_PATH = fileURLToPath(
  new URL(`./failure-converter${extname(fileURLToPath(import.meta.url))}`, import.meta.url),
);

/** What `bundleWorkflowCode` needs so that workflow code converts failures the same way. */
export const workflowBundleConverters = { failureConverterPath: FAILURE_CONVERTER_PATH } as const;

/**
 * The one data converter of every worker, client, ingress and replay. A bundle built ahead of time
 * needs `workflowBundleConverters` too, or workflow failures stay in plain text.
 */
export function encryptingDataConverter(codec: PayloadCodec): DataConverter {
  return { payloadCodecs: [codec], ...workflowBundleConverters };
}

/** The codec every worker and client of this deployment uses, from configuration. */
export function codecFromConfig(payloads: {
  key?: string;
  previousKeys: string[];
  keyFile: string;
  mayCreateKeyFile: boolean;
}): EncryptionCodec {
  return new EncryptionCodec(
    loadPayloadKey(payloads),
    payloads.previousKeys.map((k) => Buffer.from(k, 'base64')),
  );
}
