import { walletIdFromSrn } from '../../provider/srn.js';
import type { SandboxContext } from '../context.js';
import { notFound, SandboxError, validationError } from '../errors.js';
import { newId } from '../ids.js';
import type { ProviderRoute } from '../provider-route.js';
import { readOrder, readReservation, reserveOrder } from '../../provider/endpoints.js';
import { own, type ReservationRecord } from '../store.js';

/** A reservation past its lifetime is EXPIRED from then on (checked when it is looked at). */
export function currentReservation(ctx: SandboxContext, id: string): ReservationRecord {
  const record = own(ctx.store.state.reservations, id);
  if (!record) throw notFound('Reservation', id);
  if (record.status === 'OPEN' && ctx.now() > record.expiresAt) record.status = 'EXPIRED';
  return record;
}

export function registerOrderRoutes(route: ProviderRoute, ctx: SandboxContext): void {
  const { state } = ctx.store;

  // docs/provider-contract.md §4.3 with §OP-8: used once, lives 15 minutes by default; the URL carries accountId and reservation.
  route(reserveOrder, ({ actor, body: req, publicBase }) => {
    if (req.owner) {
      const userId = req.owner.slice('user:'.length);
      if (state.users[userId]?.ownerAccountId !== actor.accountId) {
        throw new SandboxError(
          'AccessDeniedException',
          `owner ${req.owner} is not a user of account ${actor.accountId}`,
          { errorCode: 'accessDenied.notOwner', problematicField: 'owner' },
        );
      }
    }
    const dest = req.dest ?? `account:${actor.accountId}`;
    if (
      dest.startsWith('wallet:') &&
      own(state.wallets, walletIdFromSrn(dest) ?? '')?.owner !== `account:${actor.accountId}`
    )
      throw validationError('dest', `${dest} is not a wallet of this account`, dest);
    if (dest.startsWith('account:') && dest !== `account:${actor.accountId}`)
      throw validationError('dest', 'an account dest must be the reserving account', dest);
    const id = newId('RS');
    state.reservations[id] = {
      id,
      accountId: actor.accountId,
      request: { ...req, dest },
      owner: req.owner ?? null,
      expiresAt: ctx.now() + ctx.reservationTtlMs,
      status: 'OPEN',
      orderId: null,
    };
    const url = new URL('/sandbox/checkout', publicBase);
    url.searchParams.set('accountId', actor.accountId);
    url.searchParams.set('reservation', id);
    return { url: url.href, reservation: id };
  });

  // Not in the contract: a reservation's state (modelled on the real service's order tracking).
  route(readReservation, ({ actor, params }) => {
    const record = currentReservation(ctx, params.reservationId!);
    if (record.accountId !== actor.accountId) throw notFound('Reservation', record.id);
    return {
      reservation: record.id,
      status: record.status,
      expiresAt: record.expiresAt,
      owner: record.owner,
      orderId: record.orderId,
    };
  });

  // Not in the contract: an order's status (the real service's "Track Widget Order").
  route(readOrder, ({ actor, params }) => {
    const order = own(state.orders, params.orderId!);
    if (!order || state.reservations[order.reservation]?.accountId !== actor.accountId)
      throw notFound('Order', params.orderId!);
    return order;
  });
}
