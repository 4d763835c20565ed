import { add, type Decimal } from '../decimal.js';
import type { Transaction } from '../provider/schemas/transaction.js';
import type { Transfer } from '../provider/schemas/transfer.js';
import type { Wallet } from '../provider/schemas/wallet.js';
import { walletIdFromSrn } from '../provider/srn.js';
import type { SandboxContext } from './context.js';
import { newId } from './ids.js';
import { own } from './store.js';

// Money arriving in a wallet: balances, the transfer record, and the wallet's callback. Balances
// are exact decimal strings (src/decimal.ts), answered as JSON numbers with their digits.

export function credit(wallet: Wallet, tx: Transaction, { wasPending }: { wasPending: boolean }): void {
  const currency = tx.currency;
  if (tx.status === 'PENDING' || !wasPending)
    wallet.totalBalances[currency] = add(wallet.totalBalances[currency] ?? '0', tx.amount);
  if (tx.status === 'CONFIRMED') {
    wallet.availableBalances[currency] = add(wallet.availableBalances[currency] ?? '0', tx.amount);
    wallet.balances[currency] = wallet.availableBalances[currency]!;
  }
}

/**
 * Sends the callback of a transaction to every wallet whose balance it moves, each at its own
 * callbackUrl and signed with its merchant's first secret (docs/provider-contract.md §6.1, §6.4):
 * the destination's (incoming), then the source's (outgoing). Answers the first delivery.
 */
export async function deliverCallback(ctx: SandboxContext, tx: Transaction) {
  const walletIds = [...new Set([walletIdFromSrn(tx.dest), walletIdFromSrn(tx.source)])];
  const deliveries = await Promise.all(
    walletIds.map((walletId) => {
      const wallet = walletId ? own(ctx.store.state.wallets, walletId) : undefined;
      if (!wallet) return undefined;
      const secret = ctx.store.callbackSecretOf(wallet.owner.replace(/^account:/, ''));
      return secret ? ctx.callbacks.send(wallet.callbackUrl, secret, tx) : undefined;
    }),
  );
  return deliveries.find((delivery) => delivery !== undefined);
}

/** A transfer that went INITIATED → COMPLETED at once, with both statusHistories (docs/provider-contract.md §3.3). */
export function completedTransfer(
  owner: string,
  source: string,
  dest: string,
  currency: string,
  amt: Decimal,
  now: number,
  type: string,
): Transfer {
  const id = newId('TF');
  const history = (state: 'INITIATED' | 'COMPLETED', statusOrder: number) => ({
    id: newId('TH'),
    transferId: id,
    createdAt: now,
    type,
    statusOrder,
    statusDetail: state === 'INITIATED' ? 'Initiating Transfer' : 'Transfer Completed',
    state,
    failedState: null,
  });
  return {
    id,
    owner,
    status: 'COMPLETED',
    source,
    dest,
    createdAt: now,
    completedAt: now,
    cancelledAt: null,
    expiresAt: null,
    updatedAt: now,
    estimatedArrival: now,
    sourceAmount: amt,
    destAmount: amt,
    sourceCurrency: currency,
    destCurrency: currency,
    totalFees: '0',
    fees: { [currency]: '0' },
    customId: null,
    failureReason: null,
    exchangeRate: null,
    pendingSubStatus: null,
    reversingSubStatus: null,
    reversalReason: null,
    blockchainTx: null,
    message: null,
    statusHistories: [history('INITIATED', 0), history('COMPLETED', 5100)],
  };
}

/** The deposit a completed transfer makes into its wallet dest: stored, credited, not yet announced. */
export function depositFromTransfer(
  ctx: SandboxContext,
  transfer: Transfer,
  wallet: Wallet,
  message: string,
  authorizer: string | null,
): Transaction {
  const tx = newTransaction(ctx, {
    source: `transfer:${transfer.id}`,
    dest: wallet.srn,
    currency: transfer.destCurrency,
    amount: transfer.destAmount,
    status: 'CONFIRMED',
    message,
    authorizer,
    metadata: { transferId: transfer.id },
  });
  ctx.store.state.transactions[tx.id] = tx;
  credit(wallet, tx, { wasPending: false });
  return tx;
}

/** A transaction with the provider's defaults for what a caller does not set (docs/provider-contract.md §2.4). */
export function newTransaction(
  ctx: SandboxContext,
  fields: Pick<Transaction, 'source' | 'dest' | 'currency' | 'amount' | 'status'> & Partial<Transaction>,
): Transaction {
  const now = ctx.now();
  return {
    id: newId('TR'),
    createdAt: now,
    confirmedAt: fields.status === 'CONFIRMED' ? now : null,
    cancelledAt: null,
    reversedAt: null,
    message: null,
    allowOverdraft: false,
    authorizer: null,
    senderProvidedId: null,
    reversedBy: null,
    fees: '0',
    feesDest: null,
    sourceFees: null,
    destFees: null,
    metadata: {},
    tags: [],
    ...fields,
  };
}
