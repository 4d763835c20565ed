import type { Actor } from './auth.js';
import type { SandboxContext } from './context.js';
import { notFound, SandboxError } from './errors.js';
import { type AccountRecord, own, type PaymentMethodRecord, type UserRecord } from './store.js';

// Who may see what: the actor's own records; a parent reaches its sub-accounts and users through
// masqueradeAs; anything of another tenant is AccessDeniedException, anything unknown NotFound.

const denied = (what: string) =>
  new SandboxError(
    'AccessDeniedException',
    `${what} is not reachable with these credentials; a parent acts for its sub-accounts and users with masqueradeAs`,
    { errorCode: 'accessDenied.notOwner' },
  );

/** A record by id (see `own`), or NotFoundException naming it. */
export function lookup<T>(map: Record<string, T>, id: string, what: string): T {
  const rec = own(map, id);
  if (rec === undefined) throw notFound(what, id);
  return rec;
}

export function accountFor(ctx: SandboxContext, actor: Actor, accountId: string): AccountRecord {
  const rec = lookup(ctx.store.state.accounts, accountId, 'Account');
  if (actor.userId || accountId !== actor.accountId) throw denied(`Account ${accountId}`);
  return rec;
}

export function userFor(ctx: SandboxContext, actor: Actor, userId: string): UserRecord {
  const rec = lookup(ctx.store.state.users, userId, 'User');
  const mine = actor.userId ? actor.userId === userId : rec.ownerAccountId === actor.accountId;
  if (!mine) throw denied(`User ${userId}`);
  return rec;
}

/** A payment method belongs to an account, or to a user of it (owner `user:<id>`). */
export function paymentMethodFor(ctx: SandboxContext, actor: Actor, id: string): PaymentMethodRecord {
  const rec = lookup(ctx.store.state.paymentMethods, id, 'Payment method');
  const owner = actor.userId ? `user:${actor.userId}` : `account:${actor.accountId}`;
  if (rec.method.owner !== owner) throw denied(`Payment method ${id}`);
  return rec;
}
