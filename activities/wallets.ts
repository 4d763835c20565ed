import type { ProviderClient } from '../src/provider/client.js';
import { createWallet, listWalletTransactions, readTransfer, readWallet } from '../src/provider/endpoints.js';
import type { WalletType } from '../src/provider/schemas/wallet.js';
import { observe } from '../workflows/lib/ledger.js';
import { withProviderFailures } from './provider-failure.js';

/** How many of a wallet's newest transactions a poll looks at; far fewer than the ledger remembers. */
export const POLL_LIMIT = 100;

export interface WalletActivityDeps {
  provider: ProviderClient;
  /** Where the provider sends this wallet's callbacks: INGRESS_PUBLIC_URL + /callbacks. */
  callbackUrl: string;
}

export function createWalletActivities({ provider, callbackUrl }: WalletActivityDeps) {
  return withProviderFailures({
    /** Creates the wallet; the idempotency key makes a retried attempt return the first wallet. */
    async createWallet(input: { name: string; type?: WalletType; notes?: string; idempotencyKey: string }) {
      const w = await provider.call(createWallet, {
        body: { name: input.name, type: input.type, notes: input.notes, callbackUrl },
        idempotencyKey: input.idempotencyKey,
      });
      // Only what the workflows need goes into history (verificationData never does).
      return { id: w.id, srn: w.srn, depositAddresses: w.depositAddresses };
    },

    /**
     * The newest transactions, trimmed to what the ledger needs: polling exists to recover recent
     * lost callbacks, and a wallet's whole history would outgrow a workflow's payload limit.
     */
    async listWalletTransactions(walletId: string, limit = POLL_LIMIT) {
      const { data } = await provider.call(listWalletTransactions, { params: { walletId } });
      return [...data].sort((a, b) => b.createdAt - a.createdAt).slice(0, limit).map(observe);
    },

    /** The provider's own balances of the wallet, for the reconciliation with the ledger. */
    async readWalletBalances(walletId: string) {
      const w = await provider.call(readWallet, { params: { walletId } });
      return { available: w.availableBalances, total: w.totalBalances, checkedAt: Date.now() };
    },

    async readTransferSummary(transferId: string) {
      const t = await provider.call(readTransfer, { params: { transferId } });
      return { id: t.id, source: t.source, status: t.status };
    },
  });
}

export type WalletActivities = ReturnType<typeof createWalletActivities>;
