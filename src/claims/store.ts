import { createHash, createHmac, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ClaimRef } from './ref.js';
import { MissingClaimKeyError, open, seal } from './envelope.js';
import { keyFromFile } from '../key-file.js';

// The claim check (docs/security.md, "Personal data travels by reference"): a client stores what end
// users provide; workflows carry only a reference, and the activity that sends it verifies the bytes.
// Claims are encrypted at rest (./envelope.ts), deleted once accepted, swept, and erased on request.

export interface PutOptions {
  /** A low-entropy value (an SSN, a date of birth) whose plain hash would give it away. */
  personal?: boolean;
  /** Whose it is, as your business key (an account id, a user reference): what an erasure names. */
  subject?: string;
}

export interface ClaimStore {
  put(bytes: Uint8Array, contentType: string, opts?: PutOptions): Promise<ClaimRef>;
  /** The stored bytes; throws ClaimGoneError when they are gone, ClaimIntegrityError when they are not what the reference says. */
  get(ref: ClaimRef): Promise<Buffer>;
  /** Deletes claims; one already gone is no error. */
  delete(refs: ClaimRef[]): Promise<void>;
  /** Deletes every claim of `subject`; how many there were. */
  eraseSubject(subject: string): Promise<number>;
  /** Deletes every claim stored before `before` (epoch ms); how many there were. */
  sweep(before: number): Promise<number>;
}

/** The claim is not what its reference says: no retry changes that, so the activity ends at once. */
export class ClaimIntegrityError extends Error {
  override name = 'ClaimIntegrityError';
  readonly retryable = false;
}

/** The claim is not in the store (deleted, swept, erased, or in another store): the activity ends at once. */
export class ClaimGoneError extends Error {
  override name = 'ClaimGoneError';
  readonly retryable = false;
}

/**
 * The store failed to read the claim now: it may be whole, so the activity is retried rather than
 * given up (a process deletes a claim it could not send).
 */
export class ClaimUnavailableError extends Error {
  override name = 'ClaimUnavailableError';
  readonly retryable = true;
}

/**
 * Sealed under a claim key this process was not given: retried, since a redeploy with the key may
 * come; once the retries give up, the process reports it as its claim store's, naming the key.
 */
export class ClaimKeyMissingError extends ClaimUnavailableError {
  override name = 'ClaimKeyMissingError';
}

/** The key of personal values' digests: derived from a claim key, so that nothing else needs keeping. */
export function digestKeyOf(claimKey: Buffer): Buffer {
  return createHmac('sha256', claimKey).update('payflows claim digest').digest();
}

/** SHA-256 of a document; HMAC-SHA256 of a personal value under `digestKey`. */
export function claimDigest(bytes: Uint8Array, digestKey?: Buffer): string {
  return digestKey
    ? createHmac('sha256', digestKey).update(bytes).digest('hex')
    : createHash('sha256').update(bytes).digest('hex');
}

/**
 * Opens a sealed claim with `keys` (the writing claim key first) and checks it against its
 * reference; a personal value's digest may be under the digest key of any of them (a rotation),
 * or under one of `legacyDigestKeys()`, asked only when none of those match.
 */
export function openClaim(
  sealed: Buffer,
  ref: ClaimRef,
  name: string,
  keys: Buffer[],
  legacyDigestKeys: () => Buffer[] = () => [],
): Buffer {
  let bytes: Buffer;
  try {
    bytes = open(sealed, keys, name);
  } catch (err) {
    if (err instanceof MissingClaimKeyError)
      throw new ClaimKeyMissingError(
        `${ref.ref}: ${err.message}; give this process the same keys as the one that stored it`,
      );
    throw new ClaimIntegrityError(`${ref.ref}: ${(err as Error).message}`);
  }
  const matches = (digestKey?: Buffer) => claimDigest(bytes, digestKey) === ref.sha256;
  const ok =
    bytes.byteLength === ref.size &&
    (ref.keyed ? keys.some((k) => matches(digestKeyOf(k))) || legacyDigestKeys().some(matches) : matches());
  if (!ok)
    throw new ClaimIntegrityError(
      `${ref.ref}: the stored bytes (${bytes.byteLength} bytes) are not those referenced (${ref.size} bytes, digest ${ref.sha256.slice(0, 12)}…)`,
    );
  return bytes;
}

/** The reference to `bytes` stored as `ref`; a personal value's digest is keyed under `keyedBy`, the claim key. */
export function claimRefOf(ref: string, bytes: Uint8Array, contentType: string, keyedBy?: Buffer): ClaimRef {
  return {
    ref,
    size: bytes.byteLength,
    contentType,
    sha256: claimDigest(bytes, keyedBy && digestKeyOf(keyedBy)),
    ...(keyedBy ? { keyed: true } : {}),
  };
}

/** The claim's name in a reference `<scheme>:<name>`; a reference of another store is refused. */
export function nameInRef(ref: ClaimRef, scheme: string, store: string): string {
  const match = new RegExp(`^${scheme}:([0-9a-f]{64})$`).exec(ref.ref);
  if (!match) throw new ClaimIntegrityError(`${ref.ref} is not a reference of this ${store}`);
  return match[1]!;
}

/** A claim not in the store at `where`, and what may have happened to it. */
export function claimGone(ref: ClaimRef, where: string, setting: string): ClaimGoneError {
  return new ClaimGoneError(
    `${ref.ref} is not in the claim store at ${where}: deleted after the provider accepted it, swept after its retention, erased, or stored in another claim store (check ${setting})`,
  );
}

interface Meta {
  createdAt: number;
  subject?: string;
}

const NAME = /^[0-9a-f]{64}$/;

// A claim's files: the sealed bytes, its metadata, and the `.tmp` of either that a write
// interrupted by a crash leaves (the metadata's holds the subject in plain text).
const CLAIM_FILE_SUFFIXES = ['', '.meta', '.tmp', '.meta.tmp'] as const;

/** The claim a file of the store belongs to, or undefined for any other file (.claim-key). */
function claimNameOf(file: string): string | undefined {
  const name = file.replace(/(\.meta)?(\.tmp)?$/, '');
  return NAME.test(name) ? name : undefined;
}

function parseMeta(text: string): Meta | undefined {
  try {
    const meta = JSON.parse(text) as Partial<Meta>;
    return typeof meta.createdAt === 'number' ? (meta as Meta) : undefined;
  } catch {
    return undefined;
  }
}

interface ClaimFiles extends Partial<Pick<Meta, 'subject'>> {
  createdAt: number;
  /** Whether its metadata parsed; if not, `raw` is what there is of it. */
  parsed: boolean;
  raw: string;
}

/**
 * Files under random names in one folder, readable by this user only, each sealed under its own
 * data key, beside a metadata file (when stored, whose). A personal value's digest is keyed: a plain
 * hash of a nine-digit SSN could be reversed by trying them all.
 */
export class LocalClaimStore implements ClaimStore {
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
    const key = this.keys()[0]!;
    const sealed = seal(bytes, key, name);
    try {
      await this.write(`${name}.meta`, Buffer.from(JSON.stringify(meta)));
      await this.write(name, sealed);
    } catch (err) {
      // A claim that was not stored leaves nothing, not even the metadata that names its subject.
      await this.remove(name).catch(() => undefined);
      throw err;
    }
    return claimRefOf(`local:${name}`, bytes, contentType, opts.personal ? key : undefined);
  }

  async get(ref: ClaimRef): Promise<Buffer> {
    const name = nameInRef(ref, 'local', 'local claim store');
    let sealed: Buffer;
    try {
      sealed = await readFile(join(this.dir, name));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // Only "no such file" says the claim is gone; any other failure may pass, and the claim with it.
      if (code === 'ENOENT') throw claimGone(ref, this.dir, 'CLAIM_STORE_DIR');
      throw new ClaimUnavailableError(
        `${ref.ref} could not be read from the claim store at ${this.dir} (${code ?? (err as Error).message}); check CLAIM_STORE_DIR, its volume and its permissions`,
        { cause: err },
      );
    }
    return openClaim(sealed, ref, name, this.keys(), () => this.legacyDigestKeys());
  }

  async delete(refs: ClaimRef[]): Promise<void> {
    for (const ref of refs) await this.remove(nameInRef(ref, 'local', 'local claim store'));
  }

  async eraseSubject(subject: string): Promise<number> {
    if (!subject) throw new Error('eraseSubject: give the subject whose claims to erase');
    // A metadata file cut off mid-write does not parse, but may still name the subject.
    const named = `"subject":${JSON.stringify(subject)}`;
    return this.removeWhere((claim) => claim.subject === subject || (!claim.parsed && claim.raw.includes(named)));
  }

  async sweep(before: number): Promise<number> {
    return this.removeWhere((claim) => claim.createdAt < before);
  }

  /** Removes every claim that `match` picks, whole or left half-written by a crash; how many. */
  private async removeWhere(match: (claim: ClaimFiles) => boolean): Promise<number> {
    let files: string[];
    try {
      files = await readdir(this.dir);
    } catch {
      return 0;
    }
    const claims = new Map<string, string[]>();
    for (const file of files) {
      const name = claimNameOf(file);
      if (name) claims.set(name, [...(claims.get(name) ?? []), file]);
    }
    let removed = 0;
    for (const [name, present] of claims) {
      const claim = await this.inspect(present);
      if (!claim || !match(claim)) continue;
      await this.remove(name);
      removed += 1;
    }
    return removed;
  }

  /**
   * What a claim's files say of it: its metadata, finished or interrupted; where that does not
   * parse (a crash cut it short), its age is the files' own. Undefined when they are gone already.
   */
  private async inspect(present: string[]): Promise<ClaimFiles | undefined> {
    let raw = '';
    for (const file of present.filter((f) => f.endsWith('.meta') || f.endsWith('.meta.tmp'))) {
      const text = await readFile(join(this.dir, file), 'utf8').catch(() => '');
      raw += text;
      const meta = parseMeta(text);
      if (meta) return { ...meta, parsed: true, raw };
    }
    const stats = await Promise.all(present.map((f) => stat(join(this.dir, f)).catch(() => undefined)));
    const known = stats.flatMap((s) => (s ? [s.mtimeMs] : []));
    return known.length ? { createdAt: Math.min(...known), parsed: false, raw } : undefined;
  }

  private async remove(name: string): Promise<void> {
    for (const suffix of CLAIM_FILE_SUFFIXES) await rm(join(this.dir, `${name}${suffix}`), { force: true });
  }

  private async write(name: string, bytes: Buffer): Promise<void> {
    const tmp = join(this.dir, `${name}.tmp`);
    await writeFile(tmp, bytes, { mode: 0o600 });
    await rename(tmp, join(this.dir, name));
  }

  /**
   * Stores made before digest keys were derived kept one in `.hmac-key`: it is read (never made)
   * so that values stored then still verify, and can be deleted once CLAIM_RETENTION has passed.
   * Read each time it is needed, since a process not yet upgraded may still make it.
   */
  private legacyDigestKeys(): Buffer[] {
    try {
      return [readFileSync(join(this.dir, '.hmac-key'))];
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw new ClaimUnavailableError(
        `the claim store's .hmac-key at ${this.dir} could not be read (${(err as NodeJS.ErrnoException).code}); check its permissions`,
        { cause: err },
      );
    }
  }

  private keys(): Buffer[] {
    return this.claimKeys ?? [this.ownKey()];
  }

  /** The embedded stack's claim key, made once per store and kept beside its files. */
  private ownKey(): Buffer {
    return keyFromFile(join(this.dir, '.claim-key'), { format: 'raw' });
  }
}

/** A personal value (an SSN, a date of birth) as UTF-8 text in the store, under a keyed digest. */
export async function putValue(store: ClaimStore, value: string, subject?: string): Promise<ClaimRef> {
  return store.put(Buffer.from(value, 'utf8'), 'text/plain; charset=utf-8', { personal: true, subject });
}
