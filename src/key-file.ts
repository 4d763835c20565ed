import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

const readKey = (path: string, format: 'raw' | 'base64') =>
  format === 'raw' ? readFileSync(path) : Buffer.from(readFileSync(path, 'utf8').trim(), 'base64');

/**
 * A 32-byte key the embedded stack keeps in `path` (raw, or as base64 text), readable by this user
 * only: made when it cannot be read, unless `refuse` says why not; of two processes making it, both
 * use the one written first.
 */
export function keyFromFile(path: string, opts: { format: 'raw' | 'base64'; refuse?: () => Error }): Buffer {
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
