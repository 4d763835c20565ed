// Plain checks of what a workflow is handed (its input, its updates' arguments): small functions
// instead of zod, because every cached workflow instantiates the bundle's modules again and zod
// with its schemas costs about 1 MB of each (docs/capacity.md). The clients and the ingress check
// the same values with the zod schemas of workflows/*/messages.schema.ts on the way in;
// test/unit/checks-agree.test.ts holds the two to the same answers. Like zod, a check returns what
// it accepted (defaults filled in, unknown keys of an object left out) and reports the first problem
// with its field, the path zod would give it.

/** The first problem a check found: the field (`timing.pollMaxMs`, or `input`) and what is wrong. */
export class InputProblem extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'InputProblem';
  }
}

/** Checks a value found at `field` (dotted path, '' at the top); returns what it accepted or throws InputProblem. */
export type Check<T> = (value: unknown, field: string) => T;
type Checked<S> = { [K in keyof S]: S[K] extends Check<infer T> ? T : never };

export function fail(field: string, message: string): never {
  throw new InputProblem(field || 'input', message);
}

const at = (field: string, key: string) => (field ? `${field}.${key}` : key);
const kind = (value: unknown) => (Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value);

function plainObject(value: unknown, field: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    fail(field, `expected an object, received ${kind(value)}`);
  return value as Record<string, unknown>;
}

/**
 * An object of these fields, in this order. A field absent from the value stays absent unless its
 * check fills in a default; others are left out, or refused when `strict`.
 */
export function object<S extends Record<string, Check<unknown>>>(shape: S, opts: { strict?: boolean } = {}) {
  return (value: unknown, field: string): Checked<S> => {
    const given = plainObject(value, field);
    const out: Record<string, unknown> = {};
    for (const [key, check] of Object.entries(shape)) {
      const checked = check(given[key], at(field, key));
      if (checked !== undefined || key in given) out[key] = checked;
    }
    if (opts.strict) {
      const unknown = Object.keys(given).find((key) => !(key in shape));
      if (unknown !== undefined) fail(field, `unrecognized key: "${unknown}"`);
    }
    return out as Checked<S>;
  };
}

/** A map of string keys to values that each pass `check`. */
export function record<T>(check: Check<T>): Check<Record<string, T>> {
  return (value, field) => {
    const given = plainObject(value, field);
    return Object.fromEntries(Object.entries(given).map(([key, v]) => [key, check(v, at(field, key))]));
  };
}

export function optional<T>(check: Check<T>): Check<T | undefined> {
  return (value, field) => (value === undefined ? undefined : check(value, field));
}

export function withDefault<T>(check: Check<T>, fallback: () => T): Check<T> {
  return (value, field) => (value === undefined ? fallback() : check(value, field));
}

export function string(pattern?: RegExp, message = `must match ${pattern}`): Check<string> {
  return (value, field) => {
    if (typeof value !== 'string') fail(field, `expected a string, received ${kind(value)}`);
    if (pattern && !pattern.test(value)) fail(field, message);
    return value;
  };
}

export function nonEmptyString(): Check<string> {
  return (value, field) => {
    const text = string()(value, field);
    if (text.length === 0) fail(field, 'must not be empty');
    return text;
  };
}

export function boolean(): Check<boolean> {
  return (value, field) => {
    if (typeof value !== 'boolean') fail(field, `expected a boolean, received ${kind(value)}`);
    return value;
  };
}

/** Exactly this value; `message` for anything else, as zod words a literal with a message. */
export function literal<T extends string | number | boolean>(expected: T, message: string): Check<T> {
  return (value, field) => (value === expected ? expected : fail(field, message));
}

export function oneOf<T extends string>(options: readonly T[], message: string): Check<T> {
  return (value, field) => ((options as readonly unknown[]).includes(value) ? (value as T) : fail(field, message));
}

interface IntBounds {
  min?: number;
  max?: number;
  /** Said when the value is below min (or not positive, with min 1). */
  tooSmall?: string;
  tooBig?: string;
}

/** A safe integer within the bounds (zod's z.number().int(), which refuses NaN and Infinity too). */
export function int(bounds: IntBounds = {}): Check<number> {
  return (value, field) => {
    if (typeof value !== 'number' || !Number.isFinite(value))
      fail(field, `expected a number, received ${typeof value === 'number' ? String(value) : kind(value)}`);
    if (!Number.isInteger(value)) fail(field, `expected an integer, received ${value}`);
    if (!Number.isSafeInteger(value)) fail(field, `must be at most ${Number.MAX_SAFE_INTEGER}`);
    if (bounds.min !== undefined && value < bounds.min)
      fail(field, bounds.tooSmall ?? `must be at least ${bounds.min}`);
    if (bounds.max !== undefined && value > bounds.max) fail(field, bounds.tooBig ?? `must be at most ${bounds.max}`);
    return value;
  };
}

/** Never given (zod's z.never({ message }).optional()): personal data that must stay out of history. */
export function absent(message: string): Check<undefined> {
  return (value, field) => (value === undefined ? undefined : fail(field, message));
}

/** A URL as zod's z.url() takes it: trimmed, parseable, tabs and line breaks removed. */
export function url(): Check<string> {
  return (value, field) => {
    const trimmed = string()(value, field).trim();
    if (!URL.canParse(trimmed)) fail(field, 'must be a URL');
    return trimmed.replace(/[\t\n\r]/g, '');
  };
}
