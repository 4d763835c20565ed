import { z } from 'zod';
import { parseByteSize } from '../byte-size.js';
import { parseDuration } from '../duration.js';

// The kinds of value a setting reads: how it is checked, and how a value is written in the docs. A
// refusal never quotes the value: it may be a key, a token or a URL with credentials.

export interface Kind<T> {
  /** Reads the variable's text; its messages never quote the value. */
  schema: z.ZodType<T>;
  /** A value as the variable would be written, when String(value) is not: `90m` for 90 minutes. */
  show?(value: T): string;
  /** A gloss after the shown value, where the value alone reads poorly: `(8 MiB)`. */
  gloss?(value: T): string;
}

export const text: Kind<string> = { schema: z.string().trim().min(1) };

/** Free text: the lists (comma-separated), read by the loader. */
export const rawText: Kind<string> = { schema: z.string() };

export const port: Kind<number> = {
  schema: z.coerce.number({ error: 'must be a port number, 1 to 65535' }).int().min(1).max(65535),
};

export const integer = (min: number, max: number): Kind<number> => ({
  schema: z.coerce.number().int().min(min).max(max),
});

// A base URL: scheme, host, optional port and path. No credentials, query or fragment: they would
// be signed but not sent as signed, or swallow the paths appended to it.
export const baseUrl: Kind<string> = {
  schema: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// address' })
    .refine((value) => {
      const parts = new URL(value);
      return !parts.username && !parts.password && !parts.search && !parts.hash;
    }, 'a base URL takes no user:password@, ?query or #fragment')
    .transform((u) => u.replace(/\/+$/, '')),
};

export const anyUrl: Kind<string> = { schema: z.url() };

/** Text read by `parse`; a refusal says `message`, else the parser's own (which must not quote the value). */
function parsedBy(parse: (text: string) => number, message?: string): z.ZodType<number> {
  return z.string().transform((value, ctx) => {
    try {
      return parse(value);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: message ?? (err as Error).message });
      return z.NEVER;
    }
  });
}

const UNITS = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['m', 60_000],
  ['s', 1_000],
] as const;

/** Milliseconds in the largest unit that holds them whole: 5_400_000 is `90m`. */
export function showDuration(ms: number): string {
  const [unit, size] = UNITS.find(([, size]) => ms % size === 0) ?? ['ms', 1];
  return `${ms / size}${unit}`;
}

/** A duration, in milliseconds; at least `min` when given (a process's input asks as much). */
export function duration(min?: { ms: number }): Kind<number> {
  // parseDuration's own message quotes the value; a setting's error never does.
  const parsed = parsedBy(parseDuration, 'is not a duration; use a positive one such as 500ms, 30s, 5m, 2h, 1d');
  return {
    schema: min ? parsed.refine((value) => value >= min.ms, `must be at least ${showDuration(min.ms)}`) : parsed,
    show: showDuration,
  };
}

const BINARY_UNITS = [
  ['GiB', 1024 ** 3],
  ['MiB', 1024 ** 2],
  ['KiB', 1024],
] as const;

/** A number of bytes, glossed in the largest binary unit that holds it whole. */
export const bytes = (min: number, max: number): Kind<number> => ({
  ...integer(min, max),
  gloss: (n) => {
    const [unit, size] = BINARY_UNITS.find(([, size]) => n % size === 0) ?? ['bytes', 1];
    return `${n / size} ${unit}`;
  },
});

/** A size written with its unit (`512Mi`, `1Gi`), as src/byte-size.ts reads it. */
export const byteSize: Kind<number> = { schema: parsedBy(parseByteSize) };

export const oneOf = <const T extends readonly [string, ...string[]]>(values: T, error?: string): Kind<T[number]> => ({
  schema: z.enum(values, error ? { error } : undefined),
});

export const onOff = oneOf(['on', 'off'], 'must be `on` or `off`');

/** Base64 of 32 random bytes: a key of envelope or payload encryption. */
export const key32: Kind<string> = {
  schema: z
    .string()
    .refine(
      (v) => Buffer.from(v, 'base64').length === 32,
      'must be the base64 of 32 bytes (e.g. `openssl rand -base64 32`)',
    ),
};

export const token: Kind<string> = {
  schema: z.string().min(16, 'must be at least 16 characters (e.g. `openssl rand -hex 32`)'),
};

export const matching = (pattern: RegExp, error: string): Kind<string> => ({
  schema: z.string().regex(pattern, error),
});
