import assert from 'node:assert/strict';

// Assertions on named fields: a test says which fields of a result it checks and what each should
// be, and a failure shows them by name (node 20 has no assert.partialDeepStrictEqual).

/** The fields of `T` a test checks: any of them, nested objects in part, arrays element by element. */
export type Fields<T> = T extends readonly (infer E)[]
  ? readonly Fields<E>[]
  : T extends object
    ? { [K in keyof T]?: Fields<T[K]> }
    : T;

/** The part of `actual` that `expected` names: its fields, nested objects in part, arrays element by element. */
function named(actual: unknown, expected: unknown): unknown {
  if (Array.isArray(expected) && Array.isArray(actual)) {
    return actual.map((element: unknown, i) => (i < expected.length ? named(element, expected[i]) : element));
  }
  if (isRecord(expected) && typeof actual === 'object' && actual !== null && !Array.isArray(actual)) {
    // The named fields of any object (an error's, a class instance's), not only of a plain one.
    const fields = actual as Record<string, unknown>;
    return Object.fromEntries(Object.keys(expected).map((key) => [key, named(fields[key], expected[key])]));
  }
  return actual;
}

/** A plain object (not an array, a Buffer or a Date): what is expected field by field. */
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' &&
  value !== null &&
  [Object.prototype, null].includes(Object.getPrototypeOf(value) as object | null);

/**
 * Asserts that the fields `expected` names have these values in `actual` (deep, strict); other
 * fields are not compared, but an array must have as many elements as expected.
 * `assertFields(result, { outcome: 'FAILED', orderId: null })`.
 */
export function assertFields<T>(actual: T, expected: Fields<T>, message?: string): void {
  assert.deepEqual(named(actual, expected), expected, message);
}

/** What `answer` says to each of `inputs`, by input: `{ APPROVED: true, OPEN: false }`. */
export function answers<I extends string, A>(inputs: readonly I[], answer: (input: I) => A): Record<I, A> {
  return Object.fromEntries(inputs.map((input) => [input, answer(input)])) as Record<I, A>;
}
