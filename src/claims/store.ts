import { createHash, createHmac, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ClaimRef } from '../../workflows/messages/common.js';

// The claim check of design.md: what end users provide (documents, and personal values such as
// an SSN) is stored here by the client; workflows carry only a reference with its size, MIME type
// and digest, and the activity that sends it reads the bytes back and verifies them.

export interface ClaimStore {
  /** `personal`: a low-entropy value (an SSN, a date of birth) whose plain hash would give it away. */
  put(bytes: Uint8Array, contentType: string, opts?: { personal?: boolean }): Promise<ClaimRef>;
  /** The stored bytes; throws ClaimIntegrityError when they are not what the reference says. */
  get(ref: ClaimRef): Promise<Buffer>;
}

export class ClaimIntegrityError extends Error {
  override name = 'ClaimIntegrityError';
}

/**
 * Files under random names in one folder, readable by this user only. Documents carry their
 * SHA-256; personal values an HMAC-SHA256 under a key that never leaves the store (a plain hash
 * of a nine-digit SSN could be reversed by trying them all). Object storage can take its place.
 */
export class LocalClaimStore implements ClaimStore {
  private key: Buffer | undefined;

  constructor(private readonly dir: string) {}

  async put(bytes: Uint8Array, contentType: string, opts: { personal?: boolean } = {}): Promise<ClaimRef> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const name = randomBytes(32).toString('hex');
    const tmp = join(this.dir, `${name}.tmp`);
    await writeFile(tmp, bytes, { mode: 0o600 });
    await rename(tmp, join(this.dir, name));
    return { ref: `local:${name}`, size: bytes.byteLength, contentType, sha256: this.digest(bytes, opts.personal === true), ...(opts.personal ? { keyed: true } : {}) };
  }

  async get(ref: ClaimRef): Promise<Buffer> {
    const m = /^local:([0-9a-f]{64})$/.exec(ref.ref);
    if (!m) throw new ClaimIntegrityError(`${ref.ref} is not a reference of this local claim store`);
    let bytes: Buffer;
    try {
      bytes = await readFile(join(this.dir, m[1]!));
    } catch (err) {
      throw new ClaimIntegrityError(`${ref.ref} is not in the claim store at ${this.dir}: ${(err as Error).message}`);
    }
    const digest = this.digest(bytes, ref.keyed === true);
    if (bytes.byteLength !== ref.size || digest !== ref.sha256) {
      throw new ClaimIntegrityError(`${ref.ref}: the stored bytes (${bytes.byteLength} bytes) are not those referenced (${ref.size} bytes, digest ${ref.sha256.slice(0, 12)}…)`);
    }
    return bytes;
  }

  private digest(bytes: Uint8Array, keyed: boolean): string {
    return keyed ? createHmac('sha256', this.storeKey()).update(bytes).digest('hex') : createHash('sha256').update(bytes).digest('hex');
  }

  /** The HMAC key, made once per store and kept beside its files. */
  private storeKey(): Buffer {
    if (this.key) return this.key;
    const file = join(this.dir, '.hmac-key');
    try {
      this.key = readFileSync(file);
    } catch {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      const fresh = randomBytes(32);
      try {
        writeFileSync(file, fresh, { mode: 0o600, flag: 'wx' });
        this.key = fresh;
      } catch {
        this.key = readFileSync(file); // another process made it first
      }
    }
    return this.key;
  }
}

/** A personal value (an SSN, a date of birth) as UTF-8 text in the store, under a keyed digest. */
export async function putValue(store: ClaimStore, value: string): Promise<ClaimRef> {
  return store.put(Buffer.from(value, 'utf8'), 'text/plain; charset=utf-8', { personal: true });
}
