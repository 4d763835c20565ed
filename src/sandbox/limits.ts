import { compare, type Decimal, decimal, sum, subtract } from '../decimal.js';
import { higherLimitsFor } from '../provider/limits.js';
import type { Limits } from '../provider/schemas/limits.js';
import { DEBIT_CARD_L2 } from '../provider/schemas/user.js';
import type { SandboxContext } from './context.js';
import { own, type ReservationRecord, type UserRecord } from './store.js';

// Standard limits (without the higher scope) are not shown anywhere: the sandbox's own values.
export const STANDARD_LIMITS = { daily: 500, weekly: 1_000, monthly: 2_500, yearly: 7_500 } as const;

const DAY = 86_400_000;

/**
 * Every limit of docs/provider-contract.md §8 (and §OP-7's daily one), over a rolling window ending now;
 * a "month" is 30 days: a calendar month would allow its limit twice across a month boundary.
 */
export const LIMIT_WINDOWS = [
  { name: 'daily', ms: DAY, errorCode: 'limits.dailyLimitReached' },
  { name: 'weekly', ms: 7 * DAY, errorCode: 'limits.weeklyLimitReached' },
  { name: 'monthly', ms: 30 * DAY, errorCode: 'limits.monthlyLimitReached' },
  { name: 'yearly', ms: 365 * DAY, errorCode: 'limits.yearlyLimitReached' },
] as const;

type Table = Record<(typeof LIMIT_WINDOWS)[number]['name'], number>;

/** docs/provider-contract.md §8 rule 1: the scope, the operator's configuration, and an approved extra verification. */
export function hasHigherLimits(ctx: SandboxContext, rec: UserRecord): boolean {
  const owner = ctx.store.state.accounts[rec.ownerAccountId];
  return Boolean(
    owner?.features.debitCardL2 && rec.user.scopes?.includes(DEBIT_CARD_L2) && rec.user.status === 'APPROVED',
  );
}

/**
 * Who buys, for counting what was spent: the owner user, else (docs/provider-contract.md §8 rule 1) the
 * buyer's email, else the reservation alone: even an anonymous purchase meets the standard limits.
 */
export function buyerOf(reservation: Pick<ReservationRecord, 'id' | 'owner' | 'request'>): string {
  if (reservation.owner) return reservation.owner;
  const email = reservation.request.email;
  return typeof email === 'string' ? `email:${email.toLowerCase()}` : `reservation:${reservation.id}`;
}

function spentBy(ctx: SandboxContext, buyer: string): (ms: number) => Decimal {
  const now = ctx.now();
  const { orders, reservations } = ctx.store.state;
  const mine = Object.values(orders).filter((order) => {
    if (order.status !== 'COMPLETE') return false;
    const reservation = own(reservations, order.reservation);
    return reservation ? buyerOf(reservation) === buyer : order.owner === buyer;
  });
  return (ms) => sum(mine.filter((o) => o.createdAt > now - ms).map((o) => o.sourceAmount));
}

/** What a limit leaves after what was spent, never below zero. */
function remainingOf(limit: number, spent: Decimal): Decimal {
  const left = subtract(limit, spent);
  return compare(left, 0) < 0 ? '0' : left;
}

function tableFor(ctx: SandboxContext, rec: UserRecord | undefined, country: string): Table {
  return rec && hasHigherLimits(ctx, rec) ? higherLimitsFor(country) : STANDARD_LIMITS;
}

/** The documented limits answer (docs/provider-contract.md §OP-7): it has no monthly fields, though the limit applies. */
export function limitsFor(ctx: SandboxContext, rec: UserRecord, country: string): Limits {
  const table = tableFor(ctx, rec, country);
  const spent = spentBy(ctx, `user:${rec.user.id}`);
  const daily = spent(DAY);
  const weekly = spent(7 * DAY);
  const yearly = spent(365 * DAY);
  return {
    dailyTotalSpent: daily,
    weeklyTotalSpent: weekly,
    yearlyTotalSpent: yearly,
    dailyTotal: decimal(table.daily),
    weeklyTotal: decimal(table.weekly),
    yearlyTotal: decimal(table.yearly),
    dailyRemaining: remainingOf(table.daily, daily),
    weeklyRemaining: remainingOf(table.weekly, weekly),
    yearlyRemaining: remainingOf(table.yearly, yearly),
  };
}

/** The first limit (of all docs/provider-contract.md §8 names) a purchase would exceed, as the provider's errorCode, with the numbers. */
export function exceededBy(
  ctx: SandboxContext,
  reservation: ReservationRecord,
  amount: Decimal,
): { errorCode: string; message: string } | undefined {
  const rec = reservation.owner ? own(ctx.store.state.users, reservation.owner.slice('user:'.length)) : undefined;
  const table = tableFor(ctx, rec, rec ? countryOf(ctx, rec) : 'US');
  const spent = spentBy(ctx, buyerOf(reservation));
  for (const limit of LIMIT_WINDOWS) {
    const remaining = remainingOf(table[limit.name], spent(limit.ms));
    if (compare(amount, remaining) > 0) {
      return {
        errorCode: limit.errorCode,
        message: `the ${limit.name} limit of ${table[limit.name]} USD allows ${remaining} more; the purchase is ${amount}`,
      };
    }
  }
  return undefined;
}

/** The country whose limits apply: the user's, else its owner account's. */
export function countryOf(ctx: SandboxContext, rec: UserRecord): string {
  const country = rec.user.fields.country ?? rec.user.fields.individualCountry;
  return typeof country === 'string'
    ? country
    : (ctx.store.state.accounts[rec.ownerAccountId]?.account.country ?? 'US');
}
