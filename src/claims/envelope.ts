import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

// Envelope encryption of one claim: a fresh data key encrypts its bytes (AES-256-GCM, its name as
// associated data, so bytes moved to another name do not open); the claim key wraps the data key.
// A rotation re-wraps nothing: older claims open with a previous key, found by its stored key id.

const MAGIC = Buffer.from('PFC1');
const ID_BYTES = 6;

export function claimKeyId(key: Buffer): Buffer {
  return createHash('sha256').update(key).digest().subarray(0, ID_BYTES);
}

function gcm(key: Buffer, plain: Buffer, aad: Buffer): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad);
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

function ungcm(key: Buffer, sealed: Buffer, aad: Buffer): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, 12));
  decipher.setAAD(aad);
  decipher.setAuthTag(sealed.subarray(12, 28));
  return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]);
}

/** MAGIC, the claim key's id, the wrapped data key (12 + 16 + 32 bytes), then the sealed bytes. */
export function seal(plain: Uint8Array, claimKey: Buffer, name: string): Buffer {
  const dataKey = randomBytes(32);
  const aad = Buffer.from(name);
  return Buffer.concat([
    MAGIC,
    claimKeyId(claimKey),
    gcm(claimKey, dataKey, aad),
    gcm(dataKey, Buffer.from(plain), aad),
  ]);
}

export class ClaimKeyError extends Error {
  override name = 'ClaimKeyError';
}

/** Sealed under a claim key this process was not given: the claim may be whole, the setup is not. */
export class MissingClaimKeyError extends ClaimKeyError {
  override name = 'MissingClaimKeyError';
}

/** The plain bytes; throws ClaimKeyError when no key given opens them, or when they were changed. */
export function open(blob: Buffer, keys: Buffer[], name: string): Buffer {
  if (blob.length < MAGIC.length + ID_BYTES + 60 || !blob.subarray(0, 4).equals(MAGIC))
    throw new ClaimKeyError(`${name} is not a sealed claim`);
  const id = blob.subarray(4, 4 + ID_BYTES);
  const key = keys.find((k) => claimKeyId(k).equals(id));
  if (!key)
    throw new MissingClaimKeyError(
      `${name} was sealed with claim key ${id.toString('hex')}, which is neither CLAIM_ENCRYPTION_KEY nor one of CLAIM_PREVIOUS_KEYS`,
    );
  const aad = Buffer.from(name);
  const wrapped = blob.subarray(4 + ID_BYTES, 4 + ID_BYTES + 60);
  try {
    const dataKey = ungcm(key, wrapped, aad);
    return ungcm(dataKey, blob.subarray(4 + ID_BYTES + 60), aad);
  } catch {
    throw new ClaimKeyError(`${name} does not open: its bytes were changed, or it belongs to another name`);
  }
}
