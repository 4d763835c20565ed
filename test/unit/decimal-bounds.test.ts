import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { add, decimal, DecimalError, isDecimal, subtract, sum } from '../../src/decimal.js';
import { amount } from '../../src/provider/schemas/common.js';

// The 80-digit bound of src/decimal.ts holds for what it gives, not only for what it reads: a value
// it returns, it reads again. Past the bound it throws a DecimalError (a RangeError) naming the
// bound; and the amounts the edges let in are bounded tighter, so that no sum a ledger can make of
// them comes near it.

const digits80 = '9'.repeat(80);
const refusedPastBound = (err: unknown) => {
  assert.ok(err instanceof DecimalError, String(err));
  assert.ok(err instanceof RangeError);
  assert.match(err.message, /at most 80 digits/);
  return true;
};

describe('decimal: the bound holds after the exponent is expanded', () => {
  it('1e79 is 80 digits and reads again; 1e80 is 81 digits and is refused, naming the field and the bound', () => {
    const at = decimal('1e79');
    assert.equal(at, `1${'0'.repeat(79)}`);
    assert.equal(decimal(at), at, 'what decimal() gives, it reads');
    assert.equal(decimal('0.1e80'), at);
    assert.equal(decimal('9.9e79').length, 80);
    for (const past of ['1e80', '1e+80', '10e79', '0.5e81', '-1e80', 1e80]) {
      assert.throws(
        () => decimal(past, 'transaction.amount'),
        (err: unknown) => {
          refusedPastBound(err);
          assert.match((err as Error).message, /^transaction\.amount: /);
          return true;
        },
      );
      assert.equal(isDecimal(past), false, String(past));
    }
  });

  it('whatever decimal() gives, it reads again as the same amount (property)', () => {
    const mantissa = fc.tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 40n }), fc.nat(40));
    fc.assert(
      fc.property(mantissa, fc.integer({ min: -120, max: 120 }), ([negative, units, scale], exponent) => {
        const text = `${negative ? '-' : ''}${units}e${exponent - scale}`;
        let value: string;
        try {
          value = decimal(text);
        } catch (err) {
          assert.ok(err instanceof DecimalError);
          return;
        }
        assert.equal(decimal(value), value);
        assert.equal(add(value, '0'), value, 'and adds it');
      }),
    );
  });
});

describe('decimal: sums and differences past the bound are refused, not handed on', () => {
  it('a sum of 80 digits is given; one of 81 digits throws a RangeError naming the bound', () => {
    assert.equal(add(digits80, '0'), digits80);
    assert.equal(add(`${'9'.repeat(79)}8`, '1'), digits80);
    assert.throws(() => add(digits80, '1'), refusedPastBound);
    assert.throws(() => subtract(`-${digits80}`, '1'), refusedPastBound);
    assert.throws(() => sum([digits80, '1']), refusedPastBound);
    // Only the total is bounded: a sum that passes the bound on its way and ends within it is exact.
    assert.equal(sum([digits80, '1', '-1']), digits80);
  });

  it('digits after the point count too: a large amount and a tiny one make a sum past the bound', () => {
    assert.throws(() => add(`1${'0'.repeat(79)}`, '0.1'), refusedPastBound);
    assert.throws(() => add('1e40', '1e-40'), refusedPastBound);
    assert.equal(add('1e39', '1e-40').length, 40 + 1 + 40);
  });

  it('every sum given is read by the next add (property)', () => {
    const big = fc.bigInt({ min: -(10n ** 80n) + 1n, max: 10n ** 80n - 1n }).map(String);
    fc.assert(
      fc.property(big, big, (a, b) => {
        let total: string;
        try {
          total = add(a, b);
        } catch (err) {
          refusedPastBound(err);
          return;
        }
        assert.equal(add(total, '0'), total);
      }),
    );
  });
});

describe('amounts at the edges: bounded tighter than the sums a ledger makes of them', () => {
  const edgeMax = `${'9'.repeat(30)}.${'9'.repeat(30)}`;

  it('the amount schema takes 30 digits before the point and 30 after, and refuses more, saying the bound', () => {
    assert.equal(amount.parse(edgeMax), edgeMax);
    assert.equal(amount.parse(`-${edgeMax}`), `-${edgeMax}`);
    assert.equal(amount.parse('1e29'), `1${'0'.repeat(29)}`);
    for (const past of ['1e30', '1e80', `1${'0'.repeat(30)}`, `0.${'0'.repeat(30)}1`, '1e-31', 1e80]) {
      const result = amount.safeParse(past);
      assert.equal(result.success, false, String(past));
      assert.match(result.error!.issues[0]!.message, /at most 30 digits before the point and 30 after/);
    }
  });

  it('2^63 amounts at that bound add up within the 80 digits of a sum', () => {
    let total = edgeMax;
    for (let doubling = 0; doubling < 63; doubling += 1) total = add(total, total);
    assert.equal(total, decimal(total));
    assert.equal(
      subtract(`-${total}`, total).length,
      1 + 50 + 1 + 30,
      'a minus sign, 50 digits, a point and 30 digits',
    );
  });
});
