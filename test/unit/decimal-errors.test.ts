import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decimal, DecimalError, isDecimal } from '../../src/decimal.js';

// Whatever reaches decimal() from outside the types (a bigint from carried state, an object), the
// answer is a DecimalError naming the field, never a TypeError from writing the value out.

describe('decimal() refuses what is no amount with a DecimalError', () => {
  it('a bigint, an object and undefined each fail as a DecimalError naming the field', () => {
    for (const value of [10n, { units: 1 }, undefined, Symbol('x')]) {
      assert.throws(
        () => decimal(value as unknown as string, 'limits.dailyTotal'),
        (err: unknown) => err instanceof DecimalError && /^limits\.dailyTotal: /.test(err.message),
        String(typeof value),
      );
      assert.equal(isDecimal(value), false);
    }
  });
});
