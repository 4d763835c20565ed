import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ClaimRef } from '../../workflows/messages/common';

// The claim check of design.md: what end users provide (documents, and personal values such as
// an SSN) is stored here by the client; workflows carry only a reference with its size, MIME type
// and SHA-256, and the activity that sends it reads the bytes back and verifies them.

export interface ClaimStore {
  put(bytes: Uint8Array, contentType: string): Promise<ClaimRef>;
  /** The stored bytes; throws ClaimIntegrityError when they are not what the reference says. */
  get(ref: ClaimRef): Promise<Buffer>;
}

export class ClaimIntegrityError extends Error {
  override name = 'ClaimIntegrityError';
}

/** Files named by their SHA-256 in one folder, readable by this user only. Object storage can take its place. */
export class LocalClaimStore implements ClaimStore {
  constructor(private readonly dir: string) {}

  async put(bytes: Uint8Array, contentType: string): Promise<ClaimRef> {
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const tmp = join(this.dir, `${sha256}.${process.pid}.tmp`);
    await writeFile(tmp, bytes, { mode: 0o600 });
    await rename(tmp, join(this.dir, sha256));
    return { ref: `local:${sha256}`, size: bytes.byteLength, contentType, sha256 };
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
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    if (bytes.byteLength !== ref.size || sha256 !== ref.sha256) {
      throw new ClaimIntegrityError(`${ref.ref}: the stored bytes (${bytes.byteLength} bytes, sha256 ${sha256}) are not those referenced (${ref.size} bytes, sha256 ${ref.sha256})`);
    }
    return bytes;
  }
}

/** A personal value (an SSN, a date of birth) as UTF-8 text in the store. */
export async function putValue(store: ClaimStore, value: string): Promise<ClaimRef> {
  return store.put(Buffer.from(value, 'utf8'), 'text/plain; charset=utf-8');
}
