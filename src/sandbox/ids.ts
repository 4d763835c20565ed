import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** Ids in the provider's style: prefix, underscore, 11 upper-case characters (e.g. WA_8AFWHMHLYXH). */
export function newId(prefix: string): string {
  const bytes = randomBytes(11);
  let suffix = '';
  for (const byte of bytes) suffix += ALPHABET[byte % ALPHABET.length];
  return `${prefix}_${suffix}`;
}

export function newHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}
