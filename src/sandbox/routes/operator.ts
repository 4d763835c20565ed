import { z } from 'zod';
import { INTEREST_PAYMENTS_SRN, walletIdFromSrn } from '../../provider/srn.js';
import { add } from '../../decimal.js';
import { amount as anyAmount, currencyCode, jsonNumber, positiveAmount } from '../../provider/schemas/common.js';
import type { Transaction } from '../../provider/schemas/transaction.js';
import type { SandboxContext } from '../context.js';
import { validationError } from '../errors.js';
import { lookup } from '../access.js';
import type { OperatorRoute } from '../operator-route.js';
import { newHex } from '../ids.js';
import { completedTransfer, credit, deliverCallback, depositFromTransfer, newTransaction } from '../deposits.js';
import { DEPOSIT_NETWORKS } from './wallets.js';

// Operator routes that play the outside world: blockchain deposits, interest payouts, callback knobs.

const amount = positiveAmount;
const depositBody = z.object({
  currency: z.string().min(1),
  amount,
  /** true: the deposit arrives already confirmed (one callback). Default: pending, then confirm it. */
  confirmed: z.boolean().default(false),
});
const payoutBody = z.object({ currency: z.string().min(1).default('USD'), amount });
/** A manual correction at the provider: the balance moves, no transaction, no callback. */
const adjustmentBody = z.object({ currency: currencyCode, amount: anyAmount });
const knobsBody = z
  .object({
    drop: jsonNumber(z.number().int().min(0)).optional(),
    repeat: jsonNumber(z.number().int().min(0).max(10)).optional(),
  })
  .strict();

export function registerOperatorRoutes(route: OperatorRoute, ctx: SandboxContext): void {
  const { store } = ctx;
  const walletById = (id: string) => lookup(store.state.wallets, id, 'Wallet');

  const deliver = (tx: Transaction) => deliverCallback(ctx, tx);

  route('POST', '/sandbox/wallets/:walletId/deposits', depositBody, async ({ walletId }, body) => {
    const wallet = walletById(walletId!);
    const net = DEPOSIT_NETWORKS[body.currency];
    if (!net)
      throw validationError(
        'currency',
        `no deposit address for ${body.currency}; use one of ${Object.keys(DEPOSIT_NETWORKS).join(', ')}`,
        body.currency,
      );
    const tx = newTransaction(ctx, {
      source: `${net.network}:EXTERNAL`,
      dest: wallet.srn,
      currency: body.currency,
      amount: body.amount,
      status: body.confirmed ? 'CONFIRMED' : 'PENDING',
      allowOverdraft: true,
      metadata: { [`${body.currency}NetworkTxId`]: newHex(32) },
    });
    store.state.transactions[tx.id] = tx;
    credit(wallet, tx, { wasPending: false });
    ctx.changed();
    return { transaction: tx, delivery: await deliver(tx) };
  });

  route('POST', '/sandbox/transactions/:transactionId/confirm', undefined, async ({ transactionId }) => {
    const tx = lookup(store.state.transactions, transactionId!, 'Transaction');
    if (tx.status !== 'PENDING')
      throw validationError(
        'status',
        `transaction ${tx.id} is ${tx.status}; only a PENDING one can be confirmed`,
        tx.status,
      );
    tx.status = 'CONFIRMED';
    tx.confirmedAt = ctx.now();
    credit(walletById(walletIdFromSrn(tx.dest) ?? tx.dest), tx, { wasPending: true });
    ctx.changed();
    return { transaction: tx, delivery: await deliver(tx) };
  });

  // docs/provider-contract.md §6.5: an interest payout is a completed transfer from the interest-payments service,
  // then a transaction into the wallet whose source is that transfer.
  route('POST', '/sandbox/wallets/:walletId/interest-payouts', payoutBody, async ({ walletId }, body) => {
    const wallet = walletById(walletId!);
    const now = ctx.now();
    const transfer = completedTransfer(
      INTEREST_PAYMENTS_SRN,
      INTEREST_PAYMENTS_SRN,
      wallet.srn,
      body.currency,
      body.amount,
      now,
      'ADMIN_CREDIT',
    );
    store.state.transfers[transfer.id] = transfer;
    const tx = depositFromTransfer(
      ctx,
      transfer,
      wallet,
      `Interest payment, transfer ${transfer.id}`,
      INTEREST_PAYMENTS_SRN,
    );
    ctx.changed();
    return { transfer, transaction: tx, delivery: await deliver(tx) };
  });

  route('POST', '/sandbox/transactions/:transactionId/resend-callback', undefined, async ({ transactionId }) => {
    const tx = lookup(store.state.transactions, transactionId!, 'Transaction');
    return { transaction: tx, delivery: await deliver(tx) };
  });

  route('POST', '/sandbox/wallets/:walletId/balance-adjustments', adjustmentBody, ({ walletId }, body) => {
    const wallet = walletById(walletId!);
    for (const field of ['balances', 'availableBalances', 'totalBalances'] as const)
      wallet[field][body.currency] = add(wallet[field][body.currency] ?? '0', body.amount);
    ctx.changed();
    return { walletId: wallet.id, balances: wallet.balances };
  });
  route('GET', '/sandbox/knobs/callbacks', undefined, () => ({ ...ctx.callbacks.knobs }));
  route('PUT', '/sandbox/knobs/callbacks', knobsBody, (_p, body) => ctx.callbacks.setKnobs(body));
  route('GET', '/sandbox/callbacks', undefined, () => ({
    data: ctx.callbacks.log.slice(-100).reverse(),
  }));
  route('GET', '/sandbox/health', undefined, () => ({ status: 'ok' }));
}
