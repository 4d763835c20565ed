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

export function accountFor(ctx: SandboxContext, actor: Actor, accountId: string): AccountRecord {
  const rec = own(ctx.store.state.accounts, accountId);
  if (!rec) throw notFound('Account', accountId);
  if (actor.userId || accountId !== actor.accountId) throw denied(`Account ${accountId}`);
  return rec;
}

export function userFor(ctx: SandboxContext, actor: Actor, userId: string): UserRecord {
  const rec = own(ctx.store.state.users, userId);
  if (!rec) throw notFound('User', userId);
  const mine = actor.userId ? actor.userId === userId : rec.ownerAccountId === actor.accountId;
  if (!mine) throw denied(`User ${userId}`);
  return rec;
}

/** A payment method belongs to an account, or to a user of it (owner `user:<id>`). */
export function paymentMethodFor(ctx: SandboxContext, actor: Actor, id: string): PaymentMethodRecord {
  const rec = own(ctx.store.state.paymentMethods, id);
  if (!rec) throw notFound('Payment method', id);
  const owner = actor.userId ? `user:${actor.userId}` : `account:${actor.accountId}`;
  if (rec.method.owner !== owner) throw denied(`Payment method ${id}`);
  return rec;
}
