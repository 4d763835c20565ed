import { z } from 'zod';
import { positiveAmount } from '../../provider/schemas/common.js';
import type { SandboxContext } from '../context.js';
import { completedTransfer } from '../deposits.js';
import { validationError } from '../errors.js';
import { lookup } from '../access.js';
import type { OperatorRoute } from '../operator-route.js';
import { completePurchase, failPurchase } from '../purchases.js';
import { DEPOSIT_NETWORKS } from './wallets.js';

// Operator routes that play the card buyer on the hosted page and the blockchains that pay into
// attached addresses.

const completeBody = z.object({ amount: positiveAmount.optional() }).strict();
const failBody = z.object({ reason: z.string().min(1).default('The card was declined') }).strict();
const liquidationBody = z.object({ currency: z.string().min(1), amount: positiveAmount }).strict();

export function registerPaymentOperatorRoutes(route: OperatorRoute, ctx: SandboxContext): void {
  const { state } = ctx.store;

  // The buyer pays on the hosted page (src/sandbox/purchases.ts); the hosted page's Pay button does the same.
  route('POST', '/sandbox/reservations/:reservation/complete', completeBody, ({ reservation }, body) =>
    completePurchase(ctx, reservation!, body.amount),
  );

  route('POST', '/sandbox/reservations/:reservation/fail', failBody, ({ reservation }, body) =>
    failPurchase(ctx, reservation!, body.reason),
  );

  // docs/provider-contract.md §2.2 rule 3: a deposit to an attached address is converted and liquidated to the method.
  route(
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
