import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { z } from 'zod';
import {
  absent,
  boolean,
  type Check,
  int,
  literal,
  object,
  oneOf,
  optional,
  positiveAmount,
  record,
  string,
  url,
  withDefault,
} from '../../workflows/lib/input-check.js';
import { zodFrom } from '../../workflows/lib/zod-from-check.schema.js';
import { viaCheck, viaZod } from '../helpers/outcome.js';

// The converter from a check's description to zod (workflows/lib/zod-from-check.schema.ts): what it
// builds takes and refuses what the check does, with the same field and the check's own words
// where it has them, and gives back the same (defaults, trims, canonical amounts); its JSON Schema
// carries the same bounds, patterns and defaults.

function sameAnswer(check: Check<unknown>, sample: unknown, { words }: { words: 'same' | 'zod' }) {
  const [expected, actual] = [viaZod(zodFrom(check), sample), viaCheck(check, sample)];
  const shown = JSON.stringify(sample);
  if (expected.ok || actual.ok || words === 'same') assert.deepStrictEqual(actual, expected, shown);
  else assert.equal(actual.field, expected.field, shown);
}

describe('zodFrom: the zod schema of a check', () => {
  it('a string with a pattern, lengths and trim: same answers, same words', () => {
    const check = string({
      pattern: /^[a-z]+$/,
      message: 'lower-case letters',
      trim: true,
      minLength: 1,
      tooShort: 'empty',
    });
    for (const sample of ['abc', '  abc ', '']) sameAnswer(check, sample, { words: 'same' });
    sameAnswer(check, '   ', { words: 'same' });
    sameAnswer(check, 'ABC', { words: 'same' });
    sameAnswer(check, 5, { words: 'zod' });
    sameAnswer(string({ maxLength: 3 }), 'abcd', { words: 'zod' });
  });

  it('an int within bounds, with its own words when it has them', () => {
    const check = int({ min: 1, max: 10, tooSmall: 'too few', tooBig: 'too many' });
    for (const sample of [1, 10]) sameAnswer(check, sample, { words: 'same' });
    for (const sample of [0, 11]) sameAnswer(check, sample, { words: 'same' });
    for (const sample of [1.5, Number.NaN, Infinity, '1', null, 2 ** 53])
      sameAnswer(int({ min: 0 }), sample, { words: 'zod' });
  });

  it('an int with a workflow minimum: the zod schema asks min, the workflow takes down to workflowMin', () => {
    const check = int({ min: 100, workflowMin: 1 });
    assert.deepEqual(viaCheck(check, 50), { ok: true, value: 50 });
    assert.equal(viaZod(zodFrom(check), 50).ok, false);
    assert.equal(viaCheck(check, 0).ok, false);
  });

  it('literal, oneOf, boolean, absent, url: same answers', () => {
    sameAnswer(literal(true, 'must be true'), false, { words: 'same' });
    sameAnswer(literal(true, 'must be true'), true, { words: 'same' });
    sameAnswer(oneOf(['A', 'B'], 'A or B'), 'C', { words: 'same' });
    sameAnswer(oneOf(['A', 'B'], 'A or B'), 'B', { words: 'same' });
    sameAnswer(boolean(), 'yes', { words: 'zod' });
    sameAnswer(absent('leave it out'), 'x', { words: 'same' });
    sameAnswer(object({ email: absent('leave it out') }), {}, { words: 'same' });
    for (const sample of ['  https://a.example/x ', 'https://a.exa\tmple/', 'not a url'])
      sameAnswer(url(), sample, { words: 'zod' });
  });

  it('a positive amount: the canonical decimal, the same refusals (the bound of an amount included)', () => {
    const check = positiveAmount();
    for (const sample of ['49.99', 49.99, '049.990', { isLosslessNumber: true, value: '161176780.13' }])
      sameAnswer(check, sample, { words: 'same' });
    for (const sample of ['0', '-1', 'ten', Number.NaN, `1${'0'.repeat(40)}`, `0.${'0'.repeat(40)}1`])
      sameAnswer(check, sample, { words: 'same' });
  });

  it('objects: defaults as copies, optional fields, unknown keys left out or refused, rules across fields', () => {
    const inner = object({ n: withDefault(int({ min: 1 }), 5) });
    const check = object(
      {
        a: string(),
        b: optional(int()),
        inner: withDefault(inner, { n: 5 }),
        map: withDefault(record(int({ min: 0 })), {}),
        flag: withDefault(boolean(), false),
      },
      { strict: true, rules: [{ when: 'flag', anyOf: ['b'], field: 'b', message: 'flag needs b' }] },
    );
    for (const sample of [{ a: 'x' }, { a: 'x', b: 1, inner: {}, map: { k: 1 }, flag: true }])
      sameAnswer(check, sample, { words: 'same' });
    sameAnswer(check, { a: 'x', flag: true }, { words: 'same' });
    sameAnswer(check, { a: 'x', map: { k: -1 } }, { words: 'zod' });
    sameAnswer(check, { a: 'x', other: 1 }, { words: 'zod' });
    sameAnswer(check, { a: 'x', inner: { n: 0 } }, { words: 'zod' });
    const [first, second] = [zodFrom(check).parse({ a: 'x' }), zodFrom(check).parse({ a: 'x' })];
    assert.notEqual(first.inner, second.inner, 'each parse gets its own default');
    assert.notEqual(check({ a: 'x' }, '').map, check({ a: 'x' }, '').map, 'each check gets its own default');
    sameAnswer(object({ a: string() }), { a: 'x', other: 1 }, { words: 'same' });
  });

  it('one zod schema per check, so that a schema named in a registry is referred to, not repeated', () => {
    const shared = object({ n: int() });
    const outer = object({ one: shared, two: optional(shared) });
    assert.equal(zodFrom(shared), zodFrom(shared));
    assert.equal(zodFrom(outer).shape.one, zodFrom(shared));
  });

  it("the JSON Schema carries the check's bounds, patterns, enums and defaults", () => {
    const check = object({
      id: string({ pattern: /^AC_[0-9]+$/, message: 'an account id' }),
      n: withDefault(int({ min: 1, max: 50 }), 5),
      kind: optional(oneOf(['A', 'B'], 'A or B')),
    });
    assert.deepEqual(z.toJSONSchema(zodFrom(check), { io: 'input' }), {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        id: { type: 'string', pattern: '^AC_[0-9]+$' },
        n: { type: 'integer', minimum: 1, maximum: 50, default: 5 },
        kind: { type: 'string', enum: ['A', 'B'] },
      },
      required: ['id'],
    });
  });

  it('descriptions are frozen plain data', () => {
    const check = object({ n: withDefault(record(int()), { a: 1 }), s: string({ pattern: /^x$/ }) });
    assert.ok(Object.isFrozen(check.spec));
    assert.throws(() => {
      (check.spec as { strict: boolean }).strict = true;
    }, TypeError);
    assert.deepEqual(JSON.parse(JSON.stringify(check.spec)), check.spec, 'survives JSON: plain data');
  });

  it('agree on arbitrary values (property)', () => {
    const check = object(
      {
        id: string({ pattern: /^[A-Z]{2}_[a-z0-9]+$/, message: 'an id' }),
        size: int({ min: 1, max: 1024, tooSmall: 'empty', tooBig: 'too big' }),
        kind: optional(oneOf(['A', 'B'], 'A or B')),
        amount: optional(positiveAmount()),
        flag: withDefault(boolean(), false),
      },
      { rules: [{ when: 'flag', anyOf: ['kind'], field: 'kind', message: 'flag needs kind' }] },
    );
    const value = fc.record(
      {
        id: fc.oneof(fc.constantFrom('AC_1', 'ac_1', 'US_x9', ''), fc.string()),
        size: fc.oneof(fc.integer({ min: -5, max: 1100 }), fc.double(), fc.constant('1')),
        kind: fc.constantFrom('A', 'B', 'C', undefined),
        amount: fc.oneof(
          fc.constantFrom('1', '0', '-1', '0.10', '1e3', 'x', `9${'9'.repeat(31)}`),
          fc.double({ noNaN: true }),
          fc.stringMatching(/^-?[0-9]{1,3}(\.[0-9]{1,3})?$/),
        ),
        flag: fc.boolean(),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(value, (sample) => {
        const [expected, actual] = [viaZod(zodFrom(check), sample), viaCheck(check, sample)];
        assert.equal(actual.ok, expected.ok, `${JSON.stringify(sample)}: ${JSON.stringify([expected, actual])}`);
        if (expected.ok) assert.deepStrictEqual(actual, expected);
        else if (!actual.ok) assert.equal(actual.field, expected.field, JSON.stringify(sample));
      }),
      { numRuns: 500 },
    );
  });
});
