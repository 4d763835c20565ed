import { add } from '../decimal.js';
import type { Order } from '../provider/schemas/reservation.js';
import { walletIdFromSrn } from '../provider/srn.js';
import type { SandboxContext } from './context.js';
import { completedTransfer, deliverCallback, depositFromTransfer } from './deposits.js';
import { SandboxError, validationError } from './errors.js';
import { newId } from './ids.js';
import { exceededBy } from './limits.js';
import { currentReservation } from './routes/orders.js';
import type { ReservationRecord } from './store.js';

// A card purchase on the hosted checkout page (docs/provider-contract.md §4.3, §OP-8), from the Pay
// button or the operator route: RUNNING_CHECKS → PROCESSING (transfer assigned) → COMPLETE, or FAILED.

/** docs/provider-contract.md §OP-9: card purchases are transfers from a card-processing service; its SRN is not named. */
export const CARD_PROCESSING_SRN = 'service:card-processing';

/** A URL with the redirect parameters of docs/provider-contract.md §OP-8 set, or null without a base. */
function redirect(base: unknown, params: Record<string, string | number>): string | null {
  if (typeof base !== 'string') return null;
  const url = new URL(base);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, String(value));
  return url.href;
}

/** A reservation that may still be used, or the error that says why not. */
export function usableReservation(ctx: SandboxContext, id: string): ReservationRecord {
  const record = currentReservation(ctx, id);
  if (record.status === 'USED')
    throw new SandboxError('ValidationException', `reservation ${id} was already used; a reservation is used once`, {
      errorCode: 'reservation.alreadyUsed',
      problematicField: 'reservation',
    });
  if (record.status === 'EXPIRED')
    throw new SandboxError('ValidationException', `reservation ${id} expired; create a new one`, {
      errorCode: 'reservation.expired',
      problematicField: 'reservation',
    });
  return record;
}

function newOrder(ctx: SandboxContext, record: ReservationRecord, amount: string): Order {
  const req = record.request;
  return {
    id: newId('WO'),
    reservation: record.id,
    status: 'RUNNING_CHECKS',
    transferId: null,
    sourceAmount: amount,
    sourceCurrency: req.sourceCurrency ?? 'USD',
    destCurrency: req.destCurrency ?? req.sourceCurrency ?? 'USD',
    dest: req.dest,
    owner: record.owner,
    failureReason: null,
    createdAt: ctx.now(),
  };
}

/** The buyer pays `amount` (default: the reservation's locked amount). Limits are checked first. */
export async function completePurchase(ctx: SandboxContext, reservationId: string, paid?: string) {
  const { state } = ctx.store;
  const record = usableReservation(ctx, reservationId);
  const req = record.request;
  const amount = paid ?? req.sourceAmount ?? req.destAmount;
  if (amount === undefined)
    throw validationError('amount', 'the reservation locks no amount; send the amount the buyer paid', undefined);
  const order = newOrder(ctx, record, amount);
  record.status = 'USED';
  record.orderId = order.id;
  state.orders[order.id] = order;
  // docs/provider-contract.md §8: every limit, monthly included, for every purchase (without owner: the standard ones).
  const over = exceededBy(ctx, record, amount);
  if (over) {
    Object.assign(order, { status: 'FAILED', failureReason: over.errorCode });
    return {
      order,
      limit: over,
      redirect: redirect(req.failureRedirectUrl, { orderId: order.id, reason: over.errorCode }),
    };
  }
  const transfer = completedTransfer(
    `account:${record.accountId}`,
    CARD_PROCESSING_SRN,
    req.dest,
    order.destCurrency,
    amount,
    ctx.now(),
    'WALLET_ORDER',
  );
  transfer.sourceCurrency = order.sourceCurrency;
  state.transfers[transfer.id] = transfer;
  Object.assign(order, { status: 'COMPLETE', transferId: transfer.id });
  const walletId = walletIdFromSrn(req.dest);
  let transaction;
  let delivery;
  if (walletId && state.wallets[walletId]) {
    transaction = depositFromTransfer(ctx, transfer, state.wallets[walletId], `Card purchase, order ${order.id}`, null);
    delivery = await deliverCallback(ctx, transaction);
  } else {
    const acc = state.accounts[req.dest.replace(/^account:/, '')]?.account;
    if (acc) {
      acc.availableBalances = {
        ...acc.availableBalances,
        [order.destCurrency]: add(acc.availableBalances?.[order.destCurrency] ?? '0', amount),
      };
      acc.totalBalances = {
        ...acc.totalBalances,
        [order.destCurrency]: add(acc.totalBalances?.[order.destCurrency] ?? '0', amount),
      };
    }
  }
  return {
    order,
    transfer,
    transaction,
    delivery,
    // docs/provider-contract.md §OP-8: the redirectUrl receives transferId, orderId, accountId, dest, fees, destAmount.
    redirect: redirect(req.redirectUrl, {
      transferId: transfer.id,
      orderId: order.id,
      accountId: record.accountId,
      dest: req.dest,
      fees: 0,
      destAmount: amount,
    }),
  };
}

/** The buyer's card is declined: the order FAILED with `reason`, the reservation used. */
export function failPurchase(ctx: SandboxContext, reservationId: string, reason: string) {
  const record = usableReservation(ctx, reservationId);
  const amount = record.request.sourceAmount ?? record.request.destAmount ?? '0';
  const order: Order = { ...newOrder(ctx, record, amount), status: 'FAILED', failureReason: reason };
  record.status = 'USED';
  record.orderId = order.id;
  ctx.store.state.orders[order.id] = order;
  return { order, redirect: redirect(record.request.failureRedirectUrl, { orderId: order.id, reason }) };
}
