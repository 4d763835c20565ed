import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { exceededLimit } from '../../src/provider/limits.js';

// Checkout refuses a purchase over a remaining limit before it asks the provider (OVER_LIMIT,
// workflows/checkout/): each window on its own, the others left wide open, so that a test fails
// when that window's comparison is dropped.

const open = { dailyRemaining: '1000000', weeklyRemaining: '1000000', yearlyRemaining: '1000000' };

describe('the first limit a purchase would exceed (exceededLimit)', () => {
  it('the daily limit: over what is left today is refused, exactly what is left is not', () => {
    const left = { ...open, dailyRemaining: '250.00' };
    assert.equal(exceededLimit(left, '250.01'), 'limits.dailyLimitReached');
    assert.equal(exceededLimit(left, '250.00'), undefined);
  });

  it('the weekly limit: over what is left this week is refused, exactly what is left is not', () => {
    const left = { ...open, weeklyRemaining: '7500' };
    assert.equal(exceededLimit(left, '7500.000001'), 'limits.weeklyLimitReached');
    assert.equal(exceededLimit(left, '7500'), undefined);
  });

  it('the yearly limit: over what is left this year is refused, exactly what is left is not', () => {
    const left = { ...open, yearlyRemaining: '99999.99' };
    assert.equal(exceededLimit(left, '100000'), 'limits.yearlyLimitReached');
    assert.equal(exceededLimit(left, '99999.99'), undefined);
  });

  it('names the shortest window first when a purchase is over several', () => {
    const left = { dailyRemaining: '10', weeklyRemaining: '20', yearlyRemaining: '30' };
    assert.equal(exceededLimit(left, '25'), 'limits.dailyLimitReached');
    assert.equal(exceededLimit({ ...left, dailyRemaining: '100' }, '35'), 'limits.weeklyLimitReached');
  });

  it('compares numbers from a history recorded before exact amounts the same way', () => {
    const left = { dailyRemaining: 250, weeklyRemaining: 7_500, yearlyRemaining: 100_000 };
    assert.equal(exceededLimit(left, 250.5), 'limits.dailyLimitReached');
    assert.equal(exceededLimit(left, 250), undefined);
  });
});
