import { higherLimitsFor } from '../provider/limits.js';

export { exceededLimit } from '../provider/limits.js';
import type { Limits } from '../provider/schemas/limits.js';
import { DEBIT_CARD_L2 } from '../provider/schemas/user.js';
import type { SandboxContext } from './context.js';
import type { UserRecord } from './store.js';

// Standard limits (without the higher scope) are not shown anywhere: the sandbox's own values.
export const STANDARD_LIMITS = { daily: 500, weekly: 1_000, monthly: 2_500, yearly: 7_500 } as const;

const DAY = 86_400_000;

/** Spec 8 rule 1: the scope, the operator's configuration, and an approved extra verification. */
export function hasHigherLimits(ctx: SandboxContext, rec: UserRecord): boolean {
  const owner = ctx.store.state.accounts[rec.ownerAccountId];
  return Boolean(owner?.features.debitCardL2 && rec.user.scopes?.includes(DEBIT_CARD_L2) && rec.user.status === 'APPROVED');
}

export function limitsFor(ctx: SandboxContext, rec: UserRecord, country: string): Limits {
  const table = hasHigherLimits(ctx, rec) ? higherLimitsFor(country) : STANDARD_LIMITS;
  const now = ctx.now();
  const spentSince = (ms: number) =>
    Object.values(ctx.store.state.orders)
      .filter((o) => o.owner === `user:${rec.user.id}` && o.status === 'COMPLETE' && o.createdAt > now - ms)
      .reduce((sum, o) => sum + o.sourceAmount, 0);
  const daily = spentSince(DAY);
  const weekly = spentSince(7 * DAY);
  const yearly = spentSince(365 * DAY);
  return {
    dailyTotalSpent: daily,
    weeklyTotalSpent: weekly,
    yearlyTotalSpent: yearly,
    dailyTotal: table.daily,
    weeklyTotal: table.weekly,
    yearlyTotal: table.yearly,
    dailyRemaining: Math.max(0, table.daily - daily),
    weeklyRemaining: Math.max(0, table.weekly - weekly),
    yearlyRemaining: Math.max(0, table.yearly - yearly),
  };
}

/** The country whose limits apply: the user's, else its owner account's. */
export function countryOf(ctx: SandboxContext, rec: UserRecord): string {
  const c = rec.user.fields.country ?? rec.user.fields.individualCountry;
  return typeof c === 'string' ? c : (ctx.store.state.accounts[rec.ownerAccountId]?.account.country ?? 'US');
}
