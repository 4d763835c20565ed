import { createWalletRequest, type Wallet } from '../../provider/schemas/wallet.js';
import { walletSrn } from '../../provider/srn.js';
import type { SandboxContext } from '../context.js';
import { notFound } from '../errors.js';
import { newHex, newId } from '../ids.js';
import type { ProviderRoute } from '../provider-route.js';

/** Currencies that get a deposit address, and the network their address lives on. */
export const DEPOSIT_NETWORKS: Record<string, { network: string; address: () => string }> = {
  BTC: { network: 'bitcoin', address: () => `bc1q${newHex(19)}` },
  ETH: { network: 'ethereum', address: () => `0x${newHex(20)}` },
};

export function walletOf(ctx: SandboxContext, accountId: string, walletId: string): Wallet {
  const wallet = ctx.store.state.wallets[walletId];
  // Another account's wallet is indistinguishable from a missing one.
  if (!wallet || wallet.owner !== `account:${accountId}`) throw notFound('Wallet', walletId);
  return wallet;
}

export function registerWalletRoutes(route: ProviderRoute, ctx: SandboxContext): void {
  // 4.1
  route({ method: 'POST', path: '/v2/wallets', body: createWalletRequest }, ({ actor, body: req }) => {
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
      depositAddresses: Object.fromEntries(Object.entries(DEPOSIT_NETWORKS).map(([c, n]) => [c, n.address()])),
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
  route({ method: 'GET', path: '/v2/wallet/:walletId' }, ({ actor, params }) =>
    walletOf(ctx, actor.accountId, params.walletId!),
  );

  // A wallet's transactions, newest first (in no document; see src/provider/endpoints.ts).
  route({ method: 'GET', path: '/v2/wallet/:walletId/transactions' }, ({ actor, params }) => {
    const wallet = walletOf(ctx, actor.accountId, params.walletId!);
    return { data: ctx.store.walletTransactions(wallet.id) };
  });
}
