import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { add } from '../../decimal.js';
import { positiveAmount } from '../../provider/schemas/common.js';
import type { Order } from '../../provider/schemas/reservation.js';
import { walletIdFromSrn } from '../../provider/srn.js';
import type { SandboxContext } from '../context.js';
import { completedTransfer, deliverCallback, depositFromTransfer } from '../deposits.js';
import { SandboxError, validationError } from '../errors.js';
import { newId } from '../ids.js';
import { exceededBy } from '../limits.js';
import { lookup, operatorRoute } from '../operator-route.js';
import { currentReservation } from './orders.js';
import { DEPOSIT_NETWORKS } from './wallets.js';

// Operator routes that play the card buyer on the hosted page and the blockchains that pay into
// attached addresses.

/** docs/provider-contract.md §OP-9: card purchases are transfers from a card-processing service; its SRN is not named. */
export const CARD_PROCESSING_SRN = 'service:card-processing';

const completeBody = z.object({ amount: positiveAmount.optional() }).strict();
const failBody = z.object({ reason: z.string().min(1).default('The card was declined') }).strict();
const liquidationBody = z.object({ currency: z.string().min(1), amount: positiveAmount }).strict();

function redirect(base: unknown, params: Record<string, string | number>): string | null {
  if (typeof base !== 'string') return null;
  const url = new URL(base);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, String(value));
  return url.href;
}

export function registerPaymentOperatorRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx.store;

  /** A reservation that may still be used, or the error that says why not. */
  const usable = (id: string) => {
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
  };

  // The buyer pays on the hosted page: RUNNING_CHECKS → PROCESSING (transfer assigned) → COMPLETE,
  // and the transfer deposits into the reservation's dest, with a callback for a wallet.
  operatorRoute(
    app,
    ctx,
    'POST',
    '/sandbox/reservations/:reservation/complete',
    completeBody,
    async ({ reservation }, body) => {
      const record = usable(reservation!);
      const req = record.request;
      const amount = body.amount ?? req.sourceAmount ?? req.destAmount;
      if (amount === undefined)
        throw validationError('amount', 'the reservation locks no amount; send the amount the buyer paid', undefined);
      const order: Order = {
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
        transaction = depositFromTransfer(
          ctx,
          transfer,
          state.wallets[walletId],
          `Card purchase, order ${order.id}`,
          null,
        );
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
    },
  );

  operatorRoute(app, ctx, 'POST', '/sandbox/reservations/:reservation/fail', failBody, ({ reservation }, body) => {
    const record = usable(reservation!);
    const req = record.request;
    const order: Order = {
      id: newId('WO'),
      reservation: record.id,
      status: 'FAILED',
      transferId: null,
      sourceAmount: req.sourceAmount ?? req.destAmount ?? '0',
      sourceCurrency: req.sourceCurrency ?? 'USD',
      destCurrency: req.destCurrency ?? req.sourceCurrency ?? 'USD',
      dest: req.dest,
      owner: record.owner,
      failureReason: body.reason,
      createdAt: ctx.now(),
    };
    record.status = 'USED';
    record.orderId = order.id;
    state.orders[order.id] = order;
    return { order, redirect: redirect(req.failureRedirectUrl, { orderId: order.id, reason: body.reason }) };
  });

  // docs/provider-contract.md §2.2 rule 3: a deposit to an attached address is converted and liquidated to the method.
  operatorRoute(
    app,
    ctx,
    'POST',
    '/sandbox/payment-methods/:paymentMethodId/blockchain-deposits',
    liquidationBody,
    ({ paymentMethodId }, body) => {
      const rec = lookup(state.paymentMethods, paymentMethodId!, 'Payment method');
      const address = rec.method.blockchains?.[body.currency];
      if (!address)
        throw validationError(
          'currency',
          `no ${body.currency} address is attached to ${rec.method.id}; attach it first`,
          body.currency,
        );
      const network = DEPOSIT_NETWORKS[body.currency]!.network;
      const transfer = completedTransfer(
        `account:${rec.accountId}`,
        `${network}:${address}`,
        rec.method.srn,
        rec.method.defaultCurrency,
        body.amount,
        ctx.now(),
        'LIQUIDATION',
      );
      transfer.sourceCurrency = body.currency;
      transfer.exchangeRate = null;
      state.transfers[transfer.id] = transfer;
      return { transfer };
    },
  );
}
