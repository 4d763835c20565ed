import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

// A 32-byte key of the embedded stack's own, kept in a file readable by this user only: the claim
// store's (raw bytes) and the payload codec's (base64 text).

type KeyFormat = 'raw' | 'base64';

function readKey(path: string, format: KeyFormat): Buffer {
  return format === 'raw' ? readFileSync(path) : Buffer.from(readFileSync(path, 'utf8').trim(), 'base64');
}

/**
 * The key in `path`, made there when it cannot be read; two processes making it at once both use
 * the one written first. `refuse`, when given, is thrown instead of making one.
 */
export function keyFromFile(path: string, opts: { format: KeyFormat; refuse?: () => Error }): Buffer {
  try {
    return readKey(path, opts.format);
  } catch {
    if (opts.refuse) throw opts.refuse();
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const fresh = randomBytes(32);
    try {
      writeFileSync(path, opts.format === 'raw' ? fresh : fresh.toString('base64'), { mode: 0o600, flag: 'wx' });
      return fresh;
    } catch {
      return readKey(path, opts.format); // another process made it first
    }
  }
}
