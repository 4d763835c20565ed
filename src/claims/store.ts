import { createHash, createHmac, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ClaimRef } from '../../workflows/messages/common.js';
import { ClaimKeyError, open, seal } from './envelope.js';

// The claim check of design.md: what end users provide (documents, and personal values such as
// an SSN) is stored here by the client; workflows carry only a reference with its size, MIME type
// and digest, and the activity that sends it reads the bytes back and verifies them. Claims are
// encrypted at rest (envelope encryption, src/claims/envelope.ts), deleted once the provider has
// accepted them, swept after their retention, and erased per person on request.

export interface PutOptions {
  /** A low-entropy value (an SSN, a date of birth) whose plain hash would give it away. */
  personal?: boolean;
  /** Whose it is, as your business key (an account id, a user reference): what an erasure names. */
  subject?: string;
}

export interface ClaimStore {
  put(bytes: Uint8Array, contentType: string, opts?: PutOptions): Promise<ClaimRef>;
  /** The stored bytes; throws ClaimIntegrityError when they are not what the reference says. */
  get(ref: ClaimRef): Promise<Buffer>;
  /** Deletes claims; one already gone is no error. */
  delete(refs: ClaimRef[]): Promise<void>;
  /** Deletes every claim of `subject`; how many there were. */
  eraseSubject(subject: string): Promise<number>;
  /** Deletes every claim stored before `before` (epoch ms); how many there were. */
  sweep(before: number): Promise<number>;
}

export class ClaimIntegrityError extends Error {
  override name = 'ClaimIntegrityError';
}

interface Meta {
  createdAt: number;
  subject?: string;
}

const NAME = /^[0-9a-f]{64}$/;

/**
 * Files under random names in one folder, readable by this user only, each sealed under a data
 * key of its own that the claim key wraps; a metadata file beside it says when it was stored and
 * whose it is. Documents carry their SHA-256; personal values an HMAC-SHA256 under a key that
 * never leaves the store (a plain hash of a nine-digit SSN could be reversed by trying them all).
 */
export class LocalClaimStore implements ClaimStore {
  private hmacKey: Buffer | undefined;
  private readonly claimKeys: Buffer[] | undefined;

  /**
   * `key`: the claim key (CLAIM_ENCRYPTION_KEY) and `previousKeys` to read what older keys sealed.
   * Without one (tests, the embedded stack) the store keeps a key of its own beside its files.
   */
  constructor(
    private readonly dir: string,
    opts: { key?: Buffer; previousKeys?: Buffer[] } = {},
  ) {
    this.claimKeys = opts.key ? [opts.key, ...(opts.previousKeys ?? [])] : undefined;
  }

  async put(bytes: Uint8Array, contentType: string, opts: PutOptions = {}): Promise<ClaimRef> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const name = randomBytes(32).toString('hex');
    const meta: Meta = { createdAt: Date.now(), ...(opts.subject ? { subject: opts.subject } : {}) };
    await this.write(`${name}.meta`, Buffer.from(JSON.stringify(meta)));
    await this.write(name, seal(bytes, this.keys()[0]!, name));
    return { ref: `local:${name}`, size: bytes.byteLength, contentType, sha256: this.digest(bytes, opts.personal === true), ...(opts.personal ? { keyed: true } : {}) };
  }

  async get(ref: ClaimRef): Promise<Buffer> {
    const name = this.nameOf(ref);
    let sealed: Buffer;
    try {
      sealed = await readFile(join(this.dir, name));
    } catch (err) {
      throw new ClaimIntegrityError(`${ref.ref} is not in the claim store at ${this.dir} (${(err as NodeJS.ErrnoException).code}): deleted after the provider accepted it, swept after its retention, or erased`);
    }
    let bytes: Buffer;
    try {
      bytes = open(sealed, this.keys(), name);
    } catch (err) {
      throw new ClaimIntegrityError(`${ref.ref}: ${(err as ClaimKeyError).message}`);
    }
    const digest = this.digest(bytes, ref.keyed === true);
    if (bytes.byteLength !== ref.size || digest !== ref.sha256) {
      throw new ClaimIntegrityError(`${ref.ref}: the stored bytes (${bytes.byteLength} bytes) are not those referenced (${ref.size} bytes, digest ${ref.sha256.slice(0, 12)}…)`);
    }
    return bytes;
  }

  async delete(refs: ClaimRef[]): Promise<void> {
    for (const ref of refs) await this.remove(this.nameOf(ref));
  }

  async eraseSubject(subject: string): Promise<number> {
    if (!subject) throw new Error('eraseSubject: give the subject whose claims to erase');
    return this.removeWhere((m) => m.subject === subject);
  }

  async sweep(before: number): Promise<number> {
    return this.removeWhere((m) => m.createdAt < before);
  }

  private async removeWhere(match: (m: Meta) => boolean): Promise<number> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return 0;
    }
    let removed = 0;
    for (const file of names) {
      const name = file.endsWith('.meta') ? file.slice(0, -5) : undefined;
      if (!name || !NAME.test(name)) continue;
      let meta: Meta;
      try {
        meta = JSON.parse(await readFile(join(this.dir, file), 'utf8')) as Meta;
      } catch {
        continue;
      }
      if (!match(meta)) continue;
      await this.remove(name);
      removed += 1;
    }
    return removed;
  }

  private async remove(name: string): Promise<void> {
    await rm(join(this.dir, name), { force: true });
    await rm(join(this.dir, `${name}.meta`), { force: true });
  }

  private nameOf(ref: ClaimRef): string {
    const m = /^local:([0-9a-f]{64})$/.exec(ref.ref);
    if (!m) throw new ClaimIntegrityError(`${ref.ref} is not a reference of this local claim store`);
    return m[1]!;
  }

  private async write(name: string, bytes: Buffer): Promise<void> {
    const tmp = join(this.dir, `${name}.tmp`);
    await writeFile(tmp, bytes, { mode: 0o600 });
    await rename(tmp, join(this.dir, name));
  }

  private digest(bytes: Uint8Array, keyed: boolean): string {
    return keyed ? createHmac('sha256', this.ownKey('.hmac-key')).update(bytes).digest('hex') : createHash('sha256').update(bytes).digest('hex');
  }

  private keys(): Buffer[] {
    return this.claimKeys ?? [this.ownKey('.claim-key')];
  }

  /** A key made once per store and kept beside its files. */
  private ownKey(file: string): Buffer {
    if (file === '.hmac-key' && this.hmacKey) return this.hmacKey;
    const path = join(this.dir, file);
    let key: Buffer;
    try {
      key = readFileSync(path);
    } catch {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      const fresh = randomBytes(32);
      try {
        writeFileSync(path, fresh, { mode: 0o600, flag: 'wx' });
        key = fresh;
      } catch {
        key = readFileSync(path); // another process made it first
      }
    }
    if (file === '.hmac-key') this.hmacKey = key;
    return key;
  }
}

/** A personal value (an SSN, a date of birth) as UTF-8 text in the store, under a keyed digest. */
export async function putValue(store: ClaimStore, value: string, subject?: string): Promise<ClaimRef> {
  return store.put(Buffer.from(value, 'utf8'), 'text/plain; charset=utf-8', { personal: true, ...(subject ? { subject } : {}) });
}
