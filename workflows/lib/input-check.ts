// Plain checks of what a workflow is handed (its input, its updates' arguments): small functions
// instead of zod, which every cached workflow would instantiate again (docs/capacity.md). The one
// definition of each checked message: each check carries a frozen description (`spec`), from which
// ./zod-from-check.schema.ts builds the zod schema the clients and the ingress run. Like zod, a
// check returns what it accepted (defaults filled in, unknown keys left out) and reports the first
// problem with its field, the path zod would give it.

import { AMOUNT_DIGITS, amountBound, decimal } from '../../src/decimal.js';

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

/** Plain data as a default holds it. */
export type Plain = string | number | boolean | readonly Plain[] | { readonly [key: string]: Plain };

/** A rule across an object's fields: when `when` is true (always, without it), one of `anyOf` is given; else `message` at `field`. */
export type Rule = Readonly<{ anyOf: readonly string[]; when?: string; field: string; message: string }>;

/** What a check checks, as plain frozen data: what the converter to zod reads (options as the combinators below take them). */
export type Spec = Readonly<
  | ({ kind: 'string'; pattern?: string } & Omit<StringOptions, 'pattern'>)
  | { kind: 'url' | 'boolean' | 'positiveAmount' }
  | { kind: 'literal'; value: string | number | boolean; message: string }
  | { kind: 'oneOf'; options: readonly string[]; message: string }
  | ({ kind: 'int' } & IntBounds)
  | { kind: 'absent'; message: string }
  | { kind: 'optional' | 'record'; of: Spec }
  | { kind: 'default'; of: Spec; value: Plain }
  | { kind: 'object'; fields: { readonly [key: string]: Spec }; strict: boolean; rules: readonly Rule[] }
>;

declare const types: unique symbol;

/**
 * Checks a value found at `field` (dotted path, '' at the top); returns what it accepted or throws
 * InputProblem. `In` is what a caller may send (defaults may be left out): for types only.
 */
export interface Check<Out, In = unknown> {
  (value: unknown, field: string): Out;
  readonly spec: Spec;
  readonly [types]?: { readonly input: In };
}
/** An object's check, whose fields' checks the converter to zod keeps in its type. */
export interface ObjectCheck<S extends Shape, Out, In> extends Check<Out, In> {
  readonly [types]?: { readonly input: In; readonly fields: S };
}
type Shape = Record<string, Check<unknown, unknown>>;

/** What a check returns. */
export type Infer<C> = C extends Check<infer Out, unknown> ? Out : never;
/** What a caller may hand a check: defaults and optional fields may be left out. */
export type InferInput<C> = C extends { readonly [types]?: { readonly input: infer In } } ? In : never;
/** The field checks of an object's check. */
export type FieldsOf<C> = C extends { readonly [types]?: { readonly fields: infer S } } ? S : never;

/** Keys whose value may be undefined are optional, as zod's object types write them. */
type Keyed<T> = { [K in keyof T as undefined extends T[K] ? never : K]: T[K] } & {
  [K in keyof T as undefined extends T[K] ? K : never]?: T[K];
};
type Flat<T> = { [K in keyof T]: T[K] } & {};
type OutOf<S extends Shape> = Flat<Keyed<{ [K in keyof S]: Infer<S[K]> }>>;
type InOf<S extends Shape> = Flat<Keyed<{ [K in keyof S]: InferInput<S[K]> }>>;

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** The object without its undefined values, so that a description is the same once through JSON. */
const defined = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;

function copy<T extends Plain>(value: T): T {
  if (Array.isArray(value)) return value.map(copy) as unknown as T;
  if (typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copy(v)])) as T;
  return value;
}

/** The check `run`, described by `spec` (frozen: preloaded modules are shared by every workflow). */
function described<Out, In>(spec: Spec, run: (value: unknown, field: string) => Out): Check<Out, In> {
  return Object.freeze(Object.assign(run, { spec: deepFreeze(spec) }));
}

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

interface ObjectOptions {
  /** Refuse keys not in the shape (else they are left out). */
  strict?: boolean;
  /** Rules across the fields, checked once each field passed. */
  rules?: readonly Rule[];
}

/**
 * An object of these fields, in this order. A field absent from the value stays absent unless its
 * check fills in a default; others are left out, or refused when `strict`.
 */
export function object<S extends Shape>(shape: S, opts: ObjectOptions = {}): ObjectCheck<S, OutOf<S>, InOf<S>> {
  const rules = opts.rules ?? [];
  const spec: Spec = {
    kind: 'object',
    fields: Object.fromEntries(Object.entries(shape).map(([key, check]) => [key, check.spec])),
    strict: opts.strict ?? false,
    rules: rules.map((rule) => ({ ...rule, anyOf: [...rule.anyOf] })),
  };
  return described(spec, (value, field) => {
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
    const broken = brokenRule(rules, out);
    if (broken) fail(at(field, broken.field), broken.message);
    return out as OutOf<S>;
  }) as ObjectCheck<S, OutOf<S>, InOf<S>>;
}

/** The first rule an object's accepted fields break; undefined when they keep them all. */
export const brokenRule = (rules: readonly Rule[], fields: Record<string, unknown>): Rule | undefined =>
  rules.find((rule) => (rule.when === undefined || fields[rule.when]) && !rule.anyOf.some((key) => fields[key]));

/** A map of string keys to values that each pass `check`. */
export function record<T, I>(check: Check<T, I>): Check<Record<string, T>, Record<string, I>> {
  return described({ kind: 'record', of: check.spec }, (value, field) => {
    const given = plainObject(value, field);
    return Object.fromEntries(Object.entries(given).map(([key, v]) => [key, check(v, at(field, key))]));
  });
}

export function optional<T, I>(check: Check<T, I>): Check<T | undefined, I | undefined> {
  return described({ kind: 'optional', of: check.spec }, (value, field) =>
    value === undefined ? undefined : check(value, field),
  );
}

/** `fallback` when the value is left out: plain data, one copy of it each time. */
export function withDefault<T extends Plain, I>(check: Check<T, I>, fallback: NoInfer<T>): Check<T, I | undefined> {
  const value = deepFreeze(copy(fallback));
  return described({ kind: 'default', of: check.spec, value }, (given, field) =>
    given === undefined ? copy(value) : check(given, field),
  );
}

interface StringOptions {
  /** A pattern without flags, and what is said when a value does not match it. */
  pattern?: RegExp;
  message?: string;
  /** Drop surrounding whitespace before the lengths are checked. */
  trim?: boolean;
  minLength?: number;
  maxLength?: number;
  /** Said when the value is shorter than minLength. */
  tooShort?: string;
}

export function string(opts: StringOptions = {}): Check<string, string> {
  const { pattern, message, minLength, maxLength, tooShort } = opts;
  if (pattern?.flags) throw new Error(`string: the pattern ${pattern} has flags, which the JSON Schemas cannot carry`);
  const spec = defined({ kind: 'string', ...opts, pattern: pattern?.source } as const);
  return described(spec, (value, field) => {
    if (typeof value !== 'string') fail(field, `expected a string, received ${kind(value)}`);
    const text = opts.trim ? value.trim() : value;
    if (minLength !== undefined && text.length < minLength)
      fail(field, tooShort ?? (minLength === 1 ? 'must not be empty' : `must be at least ${minLength} characters`));
    if (maxLength !== undefined && text.length > maxLength) fail(field, `must be at most ${maxLength} characters`);
    if (pattern && !pattern.test(text)) fail(field, message ?? `must match ${pattern}`);
    return text;
  });
}

export function boolean(): Check<boolean, boolean> {
  return described({ kind: 'boolean' }, (value, field) => {
    if (typeof value !== 'boolean') fail(field, `expected a boolean, received ${kind(value)}`);
    return value;
  });
}

/** Exactly this value; `message` for anything else, as zod words a literal with a message. */
export function literal<T extends string | number | boolean>(expected: T, message: string): Check<T, T> {
  return described({ kind: 'literal', value: expected, message }, (value, field) =>
    value === expected ? expected : fail(field, message),
  );
}

export function oneOf<const T extends string>(options: readonly T[], message: string): Check<T, T> {
  return described({ kind: 'oneOf', options: [...options], message }, (value, field) =>
    (options as readonly unknown[]).includes(value) ? (value as T) : fail(field, message),
  );
}

interface IntBounds {
  min?: number;
  max?: number;
  /** Said when the value is below min. */
  tooSmall?: string;
  tooBig?: string;
  /**
   * The least the workflow itself takes, below `min`, which the clients and the ingress ask: for a
   * bound raised after runs had started with less, which must keep replaying.
   */
  workflowMin?: number;
}

/** A safe integer within the bounds (zod's z.number().int(), which refuses NaN and Infinity too). */
export function int(bounds: IntBounds = {}): Check<number, number> {
  const least = bounds.workflowMin ?? bounds.min;
  return described(defined({ kind: 'int', ...bounds } as const), (value, field) => {
    if (typeof value !== 'number' || !Number.isFinite(value))
      fail(field, `expected a number, received ${typeof value === 'number' ? String(value) : kind(value)}`);
    if (!Number.isInteger(value)) fail(field, `expected an integer, received ${value}`);
    if (!Number.isSafeInteger(value)) fail(field, `must be at most ${Number.MAX_SAFE_INTEGER}`);
    if (least !== undefined && value < least)
      fail(field, (least === bounds.min ? bounds.tooSmall : undefined) ?? `must be at least ${least}`);
    if (bounds.max !== undefined && value > bounds.max) fail(field, bounds.tooBig ?? `must be at most ${bounds.max}`);
    return value;
  });
}

/** Never given (zod's z.never({ message }).optional()): personal data that must stay out of history. */
export function absent(message: string): Check<undefined, undefined> {
  return described({ kind: 'absent', message }, (value, field) =>
    value === undefined ? undefined : fail(field, message),
  );
}

/** A URL as zod's z.url() takes it: trimmed, parseable, tabs and line breaks removed. */
export function url(): Check<string, string> {
  return described({ kind: 'url' }, (value, field) => {
    if (typeof value !== 'string') fail(field, `expected a string, received ${kind(value)}`);
    const trimmed = value.trim();
    if (!URL.canParse(trimmed)) fail(field, 'must be a URL');
    return trimmed.replace(/[\t\n\r]/g, '');
  });
}

/** A number src/json.ts kept as text, its digits exact (a LosslessNumber). */
export type LosslessNumber = { isLosslessNumber: true; value: string };

/** The text of a LosslessNumber, or the value itself. */
const numberText = (value: unknown): unknown =>
  value !== null && typeof value === 'object' && (value as { isLosslessNumber?: unknown }).isLosslessNumber === true
    ? (value as { value: unknown }).value
    : value;

/**
 * A positive amount, exactly: a JSON number or a decimal string within the bound of an amount
 * (src/decimal.ts AMOUNT_DIGITS); yields the canonical decimal string.
 */
export function positiveAmount(): Check<string, string | number | LosslessNumber> {
  return described({ kind: 'positiveAmount' }, (value, field) => {
    const text = numberText(value);
    const bound = amountBound(text);
    if (bound === 'none') fail(field, 'must be a decimal amount: a JSON number or a decimal string such as "12.34"');
    if (bound === 'past')
      fail(
        field,
        `is past the bound of an amount: at most ${AMOUNT_DIGITS.whole} digits before the point and ${AMOUNT_DIGITS.fraction} after`,
      );
    const exact = decimal(text as string | number);
    if (exact.startsWith('-') || exact === '0') fail(field, 'must be a positive amount');
    return exact;
  });
}
