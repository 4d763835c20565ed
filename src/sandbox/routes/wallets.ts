import type { Wallet } from '../../provider/schemas/wallet.js';
import { walletSrn } from '../../provider/srn.js';
import type { SandboxContext } from '../context.js';
import { notFound, validationError } from '../errors.js';
import { newHex, newId } from '../ids.js';
import type { ProviderRoute } from '../provider-route.js';
import { createWallet, listWalletTransactions, readWallet } from '../../provider/endpoints.js';

/** Currencies that get a deposit address, and the network their address lives on. */
export const DEPOSIT_NETWORKS: Record<string, { network: string; address: () => string }> = {
  BTC: { network: 'bitcoin', address: () => `bc1q${newHex(19)}` },
  ETH: { network: 'ethereum', address: () => `0x${newHex(20)}` },
};

/** Deposit addresses for `currencies` (default: every network's), each new. */
export function depositAddresses(currencies = Object.keys(DEPOSIT_NETWORKS)): Record<string, string> {
  return Object.fromEntries(currencies.map((c) => [c, DEPOSIT_NETWORKS[c]!.address()]));
}

/** The currencies a request names (a list, or one comma-separated text), ALL for every network's. */
export function blockchainList(value: string[] | string, field: string): string[] {
  const list = typeof value === 'string' ? value.split(',') : value;
  if (list.includes('ALL')) return Object.keys(DEPOSIT_NETWORKS);
  list.forEach((currency, index) => {
    if (!DEPOSIT_NETWORKS[currency])
      throw validationError(
        typeof value === 'string' ? field : `${field}.${index}`,
        `no blockchain ${currency}; use ALL or ${Object.keys(DEPOSIT_NETWORKS).join(', ')}`,
        currency,
      );
  });
  return list;
}

export function walletOf(ctx: SandboxContext, accountId: string, walletId: string): Wallet {
  const wallet = ctx.store.state.wallets[walletId];
  // Another account's wallet is indistinguishable from a missing one.
  if (!wallet || wallet.owner !== `account:${accountId}`) throw notFound('Wallet', walletId);
  return wallet;
}

export function registerWalletRoutes(route: ProviderRoute, ctx: SandboxContext): void {
  // 4.1
  route(createWallet, ({ actor, body: req }) => {
    const id = newId('WA');
    const wallet: Wallet = {
      id,
      srn: walletSrn(id),
      name: req.name,
      owner: `account:${actor.accountId}`,
      type: req.type ?? 'DEFAULT',
      status: null,
      createdAt: ctx.now(),
      callbackUrl: req.callbackUrl ?? null,
      notes: req.notes ?? null,
      depositAddresses: depositAddresses(),
      balances: {},
      totalBalances: {},
      availableBalances: {},
      realtimeChannel: `wallet_${id.toLowerCase()}`,
      verificationData: req.verificationData ?? null,
    };
    ctx.store.state.wallets[id] = wallet;
    return wallet;
  });

  // Lookup, as the real service documented it (not in the contract).
  route(readWallet, ({ actor, params }) => walletOf(ctx, actor.accountId, params.walletId!));

  // A wallet's transactions, newest first (in no document; see src/provider/endpoints.ts).
  route(listWalletTransactions, ({ actor, params }) => {
    const wallet = walletOf(ctx, actor.accountId, params.walletId!);
    return { data: ctx.store.walletTransactions(wallet.id) };
  });
}
