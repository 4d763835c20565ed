import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  absolute,
  add,
  compare,
  decimal,
  DecimalError,
  isDecimal,
  isZero,
  negate,
  numberKeepsDigits,
  subtract,
  sum,
} from '../../src/decimal.js';
import { parseJson, stringifyJson } from '../../src/json.js';
import { amount } from '../../src/provider/schemas/common.js';

// The exact decimal amounts of src/decimal.ts, and the JSON that keeps an amount's digits.

/** An independent reading of a decimal: integer units at a fixed scale of 18, via plain strings. */
const units18 = (text: string): bigint => {
  const negative = text.startsWith('-');
  const [whole, fraction = ''] = text.replace(/^-/, '').split('.');
  const value = BigInt(whole! + fraction.replace(/0+$/, '').padEnd(18, '0'));
  return negative ? -value : value;
};

/** A decimal with 0 to 18 decimals and up to 15 integer digits, in any of the forms JSON allows. */
const anyDecimal = fc
  .tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 15n }), fc.integer({ min: 0, max: 18 }), fc.nat(3))
  .map(([negative, units, scale, padding]) => {
    const digits = units.toString().padStart(scale + 1, '0');
    const text = scale > 0 ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}${'0'.repeat(padding)}` : digits;
    return negative ? `-${text}` : text;
  });

describe('decimal: canonical form', () => {
  it('writes one form per amount', () => {
    const cases: Array<[string | number, string]> = [
      ['123.4500', '123.45'],
      ['0.000', '0'],
      ['-0', '0'],
      ['-0.0', '0'],
      ['007.10', '7.1'],
      ['1.000000000000000001', '1.000000000000000001'],
      ['1e-7', '0.0000001'],
      ['1.5E+3', '1500'],
      ['-2.50e-2', '-0.025'],
      ['+3', '3'],
      [0.1, '0.1'],
      [1e21, '1000000000000000000000'],
      [1e-7, '0.0000001'],
      [-5, '-5'],
      [161176780.13, '161176780.13'],
    ];
    for (const [input, expected] of cases) assert.equal(decimal(input), expected, String(input));
  });

  it('refuses what is no amount, naming the field', () => {
    for (const bad of ['', '1.', '.5', '1,5', '0x10', 'NaN', 'Infinity', ' 1', '1 ', '--1', '1e', NaN, Infinity])
      assert.throws(
        () => decimal(bad, 'transaction.amount'),
        (err: Error) => {
          assert.ok(err instanceof DecimalError);
          assert.match(err.message, /^transaction\.amount: /);
          return true;
        },
      );
    assert.equal(isDecimal('12.34'), true);
    assert.equal(isDecimal({}), false);
  });

  it('refuses an exponent that would expand past any amount instead of expanding it', () => {
    assert.throws(() => decimal('1e1000000000'), /more digits than any amount/);
    assert.throws(() => decimal('1e-1000000000'), /more digits than any amount/);
    assert.throws(() => decimal('9'.repeat(81)), /more digits than any amount/);
  });
});

describe('decimal: arithmetic is exact', () => {
  it('the false-drift sum of floating point is exact here', () => {
    assert.notEqual(0.1 + 0.2, 0.3);
    assert.equal(add('0.1', '0.2'), '0.3');
    assert.equal(sum(['1.000000000000000001', '-1']), '0.000000000000000001');
    assert.equal(subtract('5', '5.000000000000000001'), '-0.000000000000000001');
    assert.equal(negate('0'), '0');
    assert.equal(absolute('-7.25'), '7.25');
    assert.equal(isZero('0.000'), true);
    assert.equal(sum([]), '0');
  });

  it('one wei apart compares apart; equal compares equal', () => {
    assert.equal(compare('1.000000000000000001', '1'), 1);
    assert.equal(compare('1', '1.000000000000000001'), -1);
    assert.equal(compare('1.50', '1.5'), 0);
    assert.equal(compare(2, '2.0'), 0);
  });

  it('sums, differences and comparisons agree with an independent fixed-scale sum (property)', () => {
    fc.assert(
      fc.property(fc.array(anyDecimal, { maxLength: 40 }), (values) => {
        const expected = values.reduce((total, v) => total + units18(v), 0n);
        assert.equal(units18(sum(values)), expected);
        assert.equal(sum(values), decimal(sum(values)), 'a sum is canonical');
      }),
    );
    fc.assert(
      fc.property(anyDecimal, anyDecimal, (a, b) => {
        assert.equal(units18(add(a, b)), units18(a) + units18(b));
        assert.equal(units18(subtract(a, b)), units18(a) - units18(b));
        const [x, y] = [units18(a), units18(b)];
        assert.equal(compare(a, b), x < y ? -1 : x > y ? 1 : 0);
        assert.equal(decimal(a), decimal(decimal(a)), 'canonical is a fixed point');
      }),
    );
  });
});

describe('JSON at the edges keeps every digit of an amount', () => {
  it('a wei amount survives parsing; a number a double holds stays a number', () => {
    const json = parseJson('{"amount": 1.000000000000000001, "createdAt": 1700000000000, "fees": 0.1}') as Record<
      string,
      unknown
    >;
    assert.equal(amount.parse(json.amount), '1.000000000000000001');
    assert.equal(json.createdAt, 1700000000000);
    assert.equal(amount.parse(json.fees), '0.1');
    assert.equal(JSON.parse('1.000000000000000001'), 1, 'what JSON.parse does');
  });

  it('amounts held as decimal strings are written as JSON numbers with the same digits', () => {
    const text = stringifyJson({
      amount: '161176780.13',
      availableBalances: { ETH: '1.000000000000000001' },
      fees: { USD: '0' },
      name: '12',
    });
    assert.equal(
      text,
      '{"amount":161176780.13,"availableBalances":{"ETH":1.000000000000000001},"fees":{"USD":0},"name":"12"}',
    );
    const back = parseJson(text) as { availableBalances: Record<string, unknown> };
    assert.equal(amount.parse(back.availableBalances.ETH), '1.000000000000000001');
  });

  it('numberKeepsDigits tells a double-exact number from one that would lose digits', () => {
    assert.equal(numberKeepsDigits('0.1'), true);
    assert.equal(numberKeepsDigits('1.10'), true);
    assert.equal(numberKeepsDigits('12345678901234567890'), false);
    assert.equal(numberKeepsDigits('1.000000000000000001'), false);
  });

  it('the amount schema refuses what is no amount, with the field to fix', () => {
    const result = amount.safeParse('twelve');
    assert.equal(result.success, false);
    assert.match(result.error!.issues[0]!.message, /decimal amount/);
  });
});
