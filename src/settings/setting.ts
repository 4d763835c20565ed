import type { z } from 'zod';
import type { Kind } from './kinds.js';

// One environment variable, described once: src/config.ts builds the schema and the loader from
// these, scripts/lib/config-doc.ts the reference in docs/configuration.md.

export interface Setting<Value = unknown> {
  readonly env: string;
  /** Reads the variable's text, the default applied when it is unset (or undefined without one). */
  readonly schema: z.ZodType<Value>;
  /** The value when the variable is unset, when it is one value. */
  readonly default?: unknown;
  /** The default as docs/configuration.md shows it: the value, formatted, or what happens when unset. */
  readonly defaultText: string;
  readonly meaning: string;
  /** What to set, and how to make it, said by a process that refuses to start without it (src/required-settings.ts). */
  readonly howToSet?: string;
  /** A value as the variable would be written. */
  readonly show: (value: unknown) => string;
}

interface Described {
  meaning: string;
  howToSet?: string;
}

/** A setting with a default value; its documented default is that value, formatted (`90m`). */
export function setting<T>(env: string, kind: Kind<T>, options: Described & { default: NoInfer<T> }): Setting<T>;
/** A setting without one value for a default: `unset` says what happens then (`unset` alone when omitted). */
export function setting<T>(env: string, kind: Kind<T>, options: Described & { unset?: string }): Setting<T | undefined>;
export function setting<T>(
  env: string,
  kind: Kind<T>,
  options: Described & { default?: T; unset?: string },
): Setting<T | undefined> {
  const show = (value: unknown) => (kind.show ? kind.show(value as T) : String(value));
  const base = { env, meaning: options.meaning, howToSet: options.howToSet, show };
  if (options.default === undefined)
    return { ...base, schema: kind.schema.optional(), defaultText: options.unset ?? 'unset' };
  const value = options.default;
  const gloss = kind.gloss ? ` (${kind.gloss(value)})` : '';
  return {
    ...base,
    schema: kind.schema.default(value as never) as z.ZodType<T>,
    default: value,
    defaultText: `\`${show(value)}\`${gloss}`,
  };
}
