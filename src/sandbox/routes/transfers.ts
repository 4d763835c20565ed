import { walletIdFromSrn } from '../../provider/srn.js';
import type { SandboxContext } from '../context.js';
import { notFound } from '../errors.js';
import type { ProviderRoute } from '../provider-route.js';
import { readTransfer } from '../../provider/endpoints.js';

export function registerTransferRoutes(route: ProviderRoute, ctx: SandboxContext): void {
  // 4.8: a transfer is visible to the account that owns it or whose wallet it paid into.
  route(readTransfer, ({ actor, params }) => {
    const transfer = ctx.store.state.transfers[params.transferId!];
    const destWallet = transfer && walletIdFromSrn(transfer.dest);
    const visible =
      transfer &&
      (transfer.owner === `account:${actor.accountId}` ||
        ctx.store.state.wallets[destWallet ?? '']?.owner === `account:${actor.accountId}` ||
        transfer.dest === `account:${actor.accountId}`);
    if (!transfer || !visible) throw notFound('Transfer', params.transferId!);
    return transfer;
  });
}
