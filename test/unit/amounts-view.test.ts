import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { limitsView, reconciliationView } from '../../workflows/lib/amounts-view.js';

// Runs from before exact amounts hold numbers in their state (limits, a carried reconciliation);
// their queries show decimal strings, as the docs promise, without changing the state itself.

const old = {
  dailyTotalSpent: 0,
  weeklyTotalSpent: 12.5,
  yearlyTotalSpent: 100,
  dailyTotal: 1000,
  weeklyTotal: 5000,
  yearlyTotal: 20000,
  dailyRemaining: 1000,
  weeklyRemaining: 4987.5,
  yearlyRemaining: 19900,
};

describe('queries show amounts as decimal strings, also for old runs', () => {
  it('limits held as numbers are shown as canonical decimals; the state is not changed', () => {
    const limits = { ...old } as unknown as Parameters<typeof limitsView>[0];
    const view = limitsView(limits)!;
    assert.equal(view.weeklyTotalSpent, '12.5');
    assert.equal(view.weeklyRemaining, '4987.5');
    assert.equal(view.dailyTotalSpent, '0');
    assert.ok(Object.values(view).every((v) => typeof v === 'string'));
    assert.equal((limits as unknown as typeof old).weeklyTotal, 5000, 'the state itself is as it was');
    assert.equal(limitsView(null), null);
  });

  it("a carried reconciliation's drift amounts are shown as decimals; its other fields as they are", () => {
    const carried = {
      checkedAt: 1_800_000_000_000,
      drift: [{ currency: 'ETH', ledger: 1.5, provider: 2, approximate: true }],
    } as unknown as Parameters<typeof reconciliationView>[0];
    assert.deepEqual(reconciliationView(carried), {
      checkedAt: 1_800_000_000_000,
      drift: [{ currency: 'ETH', ledger: '1.5', provider: '2', approximate: true }],
    });
  });
});
