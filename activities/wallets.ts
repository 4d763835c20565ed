import { ApplicationFailure, ApplicationFailureCategory } from '@temporalio/common';
import type { ProviderClient } from '../src/provider/client.js';
import { ProviderError } from '../src/provider/errors.js';
import { createWallet, listWalletTransactions, readTransfer, readWallet } from '../src/provider/endpoints.js';
import type { WalletType } from '../src/provider/schemas/wallet.js';
import type { Transaction } from '../src/provider/schemas/transaction.js';
import {
  changedSince,
  nextCursor,
  type Observation,
  observe,
  type PollAnswer,
  type PollCursor,
  POLL_PAGE_LIMIT,
} from '../src/provider/transaction-observation.js';
import { walletCallbackUrl } from '../workflows/wallet/contract.js';
import { withProviderFailures } from './provider-failure.js';

export interface WalletActivityDeps {
  provider: ProviderClient;
  /** Where the provider sends this wallet's callbacks: INGRESS_PUBLIC_URL + /callbacks. */
  callbackUrl: string;
}

export function createWalletActivities({ provider, callbackUrl }: WalletActivityDeps) {
  const pollOnce = async (walletId: string, cursor: PollCursor): Promise<PollAnswer> => {
    try {
      const { data } = await provider.call(listWalletTransactions, { params: { walletId } });
      const page = newestFirst(data, POLL_PAGE_LIMIT);
      return { changed: changedSince(page, cursor), cursor: nextCursor(page, cursor, Date.now()) };
    } catch (err) {
      if (!(err instanceof ProviderError && err.status === 404)) throw err;
    }
    // The list is in no document (src/provider/endpoints.ts): its 404 alone does not say that the
    // wallet is unknown. The wallet lookup, which the contract documents, does.
    try {
      await provider.call(readWallet, { params: { walletId } });
      return { cannotList: true };
    } catch (err) {
      if (err instanceof ProviderError && err.status === 404) return { notFound: true };
      throw err;
    }
  };

  return withProviderFailures({
    /**
     * Creates the wallet; the idempotency key makes a retried attempt return the first wallet. With
     * `callbacksByName`, its callbacks name the wallet's workflow by the wallet's name.
     */
    async createWallet(input: {
      name: string;
      type?: WalletType;
      notes?: string;
      idempotencyKey: string;
      callbacksByName?: boolean;
    }) {
      const walletCallbacks = input.callbacksByName ? walletCallbackUrl(callbackUrl, input.name) : callbackUrl;
      const wallet = await provider.call(createWallet, {
        body: { name: input.name, type: input.type, notes: input.notes, callbackUrl: walletCallbacks },
        idempotencyKey: input.idempotencyKey,
      });
      // Only what the workflows need goes into history (verificationData never does).
      return { id: wallet.id, srn: wallet.srn, depositAddresses: wallet.depositAddresses };
    },

    /** The newest transactions, trimmed for the ledger, for runs from before wallet-quiet-polling. */
    async listWalletTransactions(walletId: string, limit = POLL_PAGE_LIMIT) {
      const { data } = await provider.call(listWalletTransactions, { params: { walletId } });
      return newestFirst(data, limit);
    },

    /**
     * One poll: what changed since the cursor among the newest transactions, and the cursor for
     * the next poll. A poll that finds nothing writes a few ids to history, not the transactions.
     */
    pollWalletTransactions: pollOnce,

    /**
     * Waits for a change, the cheap way: an attempt that finds nothing fails, benignly, and
     * Temporal tries again after the retry policy's growing interval, so a quiet wallet's polls
     * write nothing to its history. Completes with what changed, or when the provider does not
     * know the wallet (or does not list its transactions).
     */
    async watchWalletTransactions(walletId: string, cursor: PollCursor): Promise<PollAnswer> {
      const answer = await pollOnce(walletId, cursor);
      if ('changed' in answer && answer.changed.length === 0) throw nothingYet('nothing new at the provider');
      return answer;
    },

    /** The provider's own balances of the wallet, for the reconciliation with the ledger. */
    async readWalletBalances(walletId: string) {
      const wallet = await provider.call(readWallet, { params: { walletId } });
      return { available: wallet.availableBalances, total: wallet.totalBalances, checkedAt: Date.now() };
    },

    async readTransferSummary(transferId: string) {
      const transfer = await provider.call(readTransfer, { params: { transferId } });
      return { id: transfer.id, source: transfer.source, status: transfer.status };
    },
  });
}

/** The newest `limit` transactions of a page, newest first, trimmed to what the ledger needs. */
function newestFirst(data: readonly Transaction[], limit: number): Observation[] {
  return [...data]
    .sort((a, b) => b.createdAt - a.createdAt)
    .slice(0, limit)
    .map(observe);
}

/** An attempt of a watch that found nothing: retried by Temporal, and neither logged as an error nor counted as a failure. */
function nothingYet(message: string): ApplicationFailure {
  return ApplicationFailure.create({ type: 'NothingNewYet', message, category: ApplicationFailureCategory.BENIGN });
}

export type WalletActivities = ReturnType<typeof createWalletActivities>;
