import type { Payload } from '@temporalio/common';
import type { EncryptionCodec } from '../../src/temporal/codec.js';

// Reading a workflow's history as a test looks for what it holds: decrypted, and as text.

/** The history with every encrypted payload replaced by what it holds. */
export async function decrypted<T>(history: T, codec: EncryptionCodec): Promise<T> {
  const found: Payload[] = [];
  const find = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(find);
    if (!value || typeof value !== 'object' || value instanceof Uint8Array) return;
    const payload = value as Payload;
    if (
      payload.metadata?.encoding instanceof Uint8Array &&
      Buffer.from(payload.metadata.encoding).toString() === 'binary/encrypted'
    )
      found.push(payload);
    else Object.values(value).forEach(find);
  };
  find(history);
  for (const payload of found) Object.assign(payload, (await codec.decode([payload]))[0]);
  return history;
}

/** The history as text, with every payload's bytes decoded (JSON in UTF-8, parsed in place). */
export function historyText(history: unknown): string {
  const walk = (value: unknown): unknown => {
    if (value instanceof Uint8Array) {
      const text = Buffer.from(value).toString('utf8');
      try {
        return JSON.parse(text) as unknown;
      } catch {
        return text;
      }
    }
    if (Array.isArray(value)) return value.map(walk);
    if (value && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, walk(field)]));
    return value;
  };
  return JSON.stringify(walk(history));
}
