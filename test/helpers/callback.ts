import { walletSrn } from '../../src/provider/srn.js';

/**
 * The body of a deposit callback for a wallet, as the provider sends it (docs/provider-contract.md §6): confirmed,
 * 0.1 BTC from outside, its transaction id derived from the wallet's. `over` replaces fields.
 */
export function depositCallback(walletId: string, over: Record<string, unknown> = {}): string {
  return JSON.stringify({
    id: `TR_${walletId.slice(3)}`,
    createdAt: 1_700_000_000_000,
    source: 'bitcoin:EXTERNAL',
    dest: walletSrn(walletId),
    currency: 'BTC',
    amount: 0.1,
    status: 'CONFIRMED',
    metadata: {},
    tags: [],
    ...over,
  });
}
