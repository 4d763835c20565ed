import { z } from 'zod';
import { add, compare, negate } from '../../decimal.js';
import { currencyCode, positiveAmount } from '../../provider/schemas/common.js';
import type { Wallet } from '../../provider/schemas/wallet.js';
import { walletIdFromSrn } from '../../provider/srn.js';
import { lookup } from '../access.js';
import type { SandboxContext } from '../context.js';
import { credit, deliverCallback, newTransaction } from '../deposits.js';
import { validationError } from '../errors.js';
import type { OperatorRoute } from '../operator-route.js';

// Operator routes that move money already in the sandbox: a transfer between two wallets (one
// transaction, whose callback the ingress signals to both), and a confirmed transaction reversed.
// And how many provider calls the fault knobs failed, so that a drill can report them.

const transferBody = z.object({ to: z.string().min(1), currency: currencyCode, amount: positiveAmount }).strict();

export function registerMoveOperatorRoutes(route: OperatorRoute, ctx: SandboxContext): void {
  const { state } = ctx.store;
  const walletById = (id: string) => lookup(state.wallets, id, 'Wallet');

  route('POST', '/sandbox/wallets/:walletId/transfers', transferBody, async ({ walletId }, body) => {
    const from = walletById(walletId!);
    const to = walletById(body.to);
    const available = from.availableBalances[body.currency] ?? '0';
    if (compare(available, body.amount) < 0)
      throw validationError('amount', `wallet ${from.id} has ${available} ${body.currency} available`, body.amount);
    const { currency, amount } = body;
    const tx = newTransaction(ctx, { source: from.srn, dest: to.srn, currency, amount, status: 'CONFIRMED' });
    state.transactions[tx.id] = tx;
    move(from, tx.currency, negate(tx.amount));
    credit(to, tx, { wasPending: false });
    return { transaction: tx, delivery: await deliverCallback(ctx, tx) };
  });

  route('POST', '/sandbox/transactions/:transactionId/reverse', undefined, async ({ transactionId }) => {
    const tx = lookup(state.transactions, transactionId!, 'Transaction');
    if (tx.status !== 'CONFIRMED')
      throw validationError(
        'status',
        `transaction ${tx.id} is ${tx.status}; only a CONFIRMED one can be reversed`,
        tx.status,
      );
    Object.assign(tx, { status: 'REVERSED', reversedAt: ctx.now() });
    const [dest, source] = [walletIdFromSrn(tx.dest), walletIdFromSrn(tx.source)];
    if (dest) move(walletById(dest), tx.currency, negate(tx.amount));
    if (source) move(walletById(source), tx.currency, tx.amount);
    return { transaction: tx, delivery: await deliverCallback(ctx, tx) };
  });

  route('GET', '/sandbox/knobs/faults/injected', undefined, () => ({ injected: ctx.faults.injected }));
}

/** Moves every balance of `wallet` in `currency` by `amount` (signed). */
function move(wallet: Wallet, currency: string, amount: string): void {
  for (const field of ['balances', 'availableBalances', 'totalBalances'] as const)
    wallet[field][currency] = add(wallet[field][currency] ?? '0', amount);
}
