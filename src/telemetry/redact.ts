// What a log line must never carry: secrets, signatures, SSNs, document bytes and onboarding links.
// Log fields are matched by name at any depth (pino's own redaction takes fixed paths only, and
// a provider error or an activity's arguments nest them anywhere); strings are also scanned for
// SSN-shaped values, which can hide inside a message that quotes an input.

export const REDACTED = '[redacted]';

/** Field names (compared without case, dashes or underscores) whose values are never logged. */
const SENSITIVE_KEYS = new Set(
  [
    'authorization',
    'x-api-signature',
    'x-api-key',
    'signature',
    'secret',
    'secretKey',
    'secrets',
    'apiKey',
    'token',
    'accessToken',
    'password',
    'ssn',
    'individualSsn',
    'taxId',
    'bytes',
    'document',
    'documentBytes',
    'onboardingLink',
    'link',
    'encryptionKey',
    'payloadEncryptionKey',
    'claimEncryptionKey',
  ].map(normalise),
);

function normalise(key: string): string {
  return key.toLowerCase().replace(/[-_]/g, '');
}

export function isSensitiveKey(key: string): boolean {
  return SENSITIVE_KEYS.has(normalise(key));
}

// 123-45-6789 or 123456789 standing alone: the shapes an SSN is written in.
const SSN = /\b\d{3}-\d{2}-\d{4}\b|(?<![\d.])\d{9}(?![\d.])/g;

export function scrubString(value: string): string {
  return value.replace(SSN, REDACTED);
}

/** A copy of `value` with sensitive fields and SSN-shaped strings replaced; cycles and depth bounded. */
export function scrub(value: unknown, depth = 0, seen = new WeakSet<object>()): unknown {
  if (typeof value === 'string') return scrubString(value);
  if (value === null || typeof value !== 'object') return value;
  if (Buffer.isBuffer(value) || ArrayBuffer.isView(value)) return REDACTED;
  if (seen.has(value) || depth > 8) return '[…]';
  seen.add(value);
  if (Array.isArray(value)) return value.map((v) => scrub(v, depth + 1, seen));
  if (value instanceof Error) {
    return {
      type: value.name,
      message: scrubString(value.message),
      ...(value.stack ? { stack: scrubString(value.stack) } : {}),
    };
  }
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value))
    out[key] = isSensitiveKey(key) ? REDACTED : scrub(item, depth + 1, seen);
  return out;
}
