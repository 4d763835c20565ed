import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { INTEREST_PAYMENTS_SRN } from '../../provider/srn';
import type { Transaction } from '../../provider/schemas/transaction';
import type { Transfer } from '../../provider/schemas/transfer';
import type { Wallet } from '../../provider/schemas/wallet';
import type { SandboxContext } from '../context';
import { notFound, SandboxError, sendError, validationError } from '../errors';
import { newHex, newId } from '../ids';
import { DEPOSIT_NETWORKS } from './wallets';

// Operator routes play the outside world: a blockchain deposit arriving (pending, then
// confirmed), an interest payout, and the callback knobs. They need no provider credentials,
// so the sandbox listens on loopback only.

const amount = z.number().positive().finite();
const depositBody = z.object({
  currency: z.string().min(1),
  amount,
  /** true: the deposit arrives already confirmed (one callback). Default: pending, then confirm it. */
  confirmed: z.boolean().default(false),
});
const payoutBody = z.object({ currency: z.string().min(1).default('USD'), amount });
const knobsBody = z.object({ drop: z.number().int().min(0).optional(), repeat: z.number().int().min(0).max(10).optional() }).strict();

function parse<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw validationError(issue.path.join('.') || 'body', issue.message);
  }
  return parsed.data;
}

function credit(wallet: Wallet, tx: Transaction, wasPending: boolean): void {
  const c = tx.currency;
  if (tx.status === 'PENDING' || !wasPending) wallet.totalBalances[c] = (wallet.totalBalances[c] ?? 0) + tx.amount;
  if (tx.status === 'CONFIRMED') {
    wallet.availableBalances[c] = (wallet.availableBalances[c] ?? 0) + tx.amount;
    wallet.balances[c] = wallet.availableBalances[c]!;
  }
}

export function registerOperatorRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const { store } = ctx;
  const guard =
    <P>(fn: (params: P, body: unknown) => Promise<unknown> | unknown) =>
    async (req: { params: unknown; body: unknown }, reply: FastifyReply) => {
      try {
        const raw = Buffer.isBuffer(req.body) ? req.body : undefined;
        let json: unknown = {};
        if (raw && raw.length > 0) {
          try {
            json = JSON.parse(raw.toString('utf8'));
          } catch {
            throw validationError('body', 'the body must be JSON');
          }
        }
        return reply.send(await fn(req.params as P, json));
      } catch (err) {
        if (err instanceof SandboxError) return sendError(reply, err);
        throw err;
      }
    };

  const walletById = (id: string) => store.state.wallets[id] ?? (() => { throw notFound('Wallet', id); })();

  const deliver = async (tx: Transaction) => {
    const wallet = walletById(tx.dest.replace(/^wallet:/, ''));
    const secret = store.firstSecretOf(wallet.owner.replace(/^account:/, ''));
    return secret ? ctx.callbacks.send(wallet.callbackUrl, secret, tx) : undefined;
  };

  app.post('/sandbox/wallets/:walletId/deposits', guard<{ walletId: string }>(async ({ walletId }, body) => {
    const wallet = walletById(walletId);
    const b = parse(depositBody, body);
    const net = DEPOSIT_NETWORKS[b.currency];
    if (!net) throw validationError('currency', `no deposit address for ${b.currency}; use one of ${Object.keys(DEPOSIT_NETWORKS).join(', ')}`, b.currency);
    const now = ctx.now();
    const tx: Transaction = {
      id: newId('TR'),
      createdAt: now,
      source: `${net.network}:EXTERNAL`,
      dest: wallet.srn,
      currency: b.currency,
      amount: b.amount,
      status: b.confirmed ? 'CONFIRMED' : 'PENDING',
      confirmedAt: b.confirmed ? now : null,
      cancelledAt: null,
      reversedAt: null,
      message: null,
      allowOverdraft: true,
      authorizer: null,
      senderProvidedId: null,
      reversedBy: null,
      fees: 0,
      feesDest: null,
      sourceFees: null,
      destFees: null,
      metadata: { [`${b.currency}NetworkTxId`]: newHex(32) },
      tags: [],
    };
    store.state.transactions[tx.id] = tx;
    credit(wallet, tx, false);
    ctx.changed();
    return { transaction: tx, delivery: await deliver(tx) };
  }));

  app.post('/sandbox/transactions/:transactionId/confirm', guard<{ transactionId: string }>(async ({ transactionId }) => {
    const tx = store.state.transactions[transactionId];
    if (!tx) throw notFound('Transaction', transactionId);
    if (tx.status !== 'PENDING') throw validationError('status', `transaction ${tx.id} is ${tx.status}; only a PENDING one can be confirmed`, tx.status);
    tx.status = 'CONFIRMED';
    tx.confirmedAt = ctx.now();
    credit(walletById(tx.dest.replace(/^wallet:/, '')), tx, true);
    ctx.changed();
    return { transaction: tx, delivery: await deliver(tx) };
  }));

  // Spec 6.5: an interest payout is a completed transfer from the interest-payments service,
  // then a transaction into the wallet whose source is that transfer.
  app.post('/sandbox/wallets/:walletId/interest-payouts', guard<{ walletId: string }>(async ({ walletId }, body) => {
    const wallet = walletById(walletId);
    const b = parse(payoutBody, body);
    const now = ctx.now();
    const transfer = completedTransfer(INTEREST_PAYMENTS_SRN, wallet.srn, b.currency, b.amount, now);
    store.state.transfers[transfer.id] = transfer;
    const tx: Transaction = {
      id: newId('TR'),
      createdAt: now,
      source: `transfer:${transfer.id}`,
      dest: wallet.srn,
      currency: b.currency,
      amount: b.amount,
      status: 'CONFIRMED',
      confirmedAt: now,
      cancelledAt: null,
      reversedAt: null,
      message: `Interest payment, transfer ${transfer.id}`,
      allowOverdraft: false,
      authorizer: INTEREST_PAYMENTS_SRN,
      senderProvidedId: null,
      reversedBy: null,
      fees: 0,
      feesDest: null,
      sourceFees: null,
      destFees: null,
      metadata: { transferId: transfer.id },
      tags: [],
    };
    store.state.transactions[tx.id] = tx;
    credit(wallet, tx, false);
    ctx.changed();
    return { transfer, transaction: tx, delivery: await deliver(tx) };
  }));

  app.post('/sandbox/transactions/:transactionId/resend-callback', guard<{ transactionId: string }>(async ({ transactionId }) => {
    const tx = store.state.transactions[transactionId];
    if (!tx) throw notFound('Transaction', transactionId);
    return { transaction: tx, delivery: await deliver(tx) };
  }));

  app.get('/sandbox/knobs/callbacks', guard(() => ({ ...ctx.callbacks.knobs })));
  app.put('/sandbox/knobs/callbacks', guard((_p, body) => ctx.callbacks.setKnobs(parse(knobsBody, body))));
  app.get('/sandbox/callbacks', guard(() => ({ data: ctx.callbacks.log.slice(-100).reverse() })));
  app.get('/sandbox/health', async () => ({ status: 'ok' }));
}

function completedTransfer(source: string, dest: string, currency: string, amt: number, now: number): Transfer {
  const id = newId('TF');
  const history = (state: 'INITIATED' | 'COMPLETED', statusOrder: number) => ({
    id: newId('TH'),
    transferId: id,
    createdAt: now,
    type: 'ADMIN_CREDIT',
    statusOrder,
    statusDetail: state === 'INITIATED' ? 'Initiating Transfer' : 'Transfer Completed',
    state,
    failedState: null,
  });
  return {
    id,
    owner: source,
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
    totalFees: 0,
    fees: { [currency]: 0 },
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
