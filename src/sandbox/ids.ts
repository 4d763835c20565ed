import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** Ids in the provider's style: prefix, underscore, 11 upper-case characters (e.g. WA_8AFWHMHLYXH). */
export function newId(prefix: string): string {
  const bytes = randomBytes(11);
  let s = '';
  for (const b of bytes) s += ALPHABET[b % ALPHABET.length];
  return `${prefix}_${s}`;
}

export function newHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}
