import { setTimeout as sleep } from 'node:timers/promises';
import type { WalletsClient, WalletView } from '../../../src/client/index.js';
import { compare } from '../../../src/decimal.js';
import type { ProviderClient } from '../../../src/provider/client.js';
import { readWallet } from '../../../src/provider/endpoints.js';
import { statusRank } from '../../../workflows/wallet/ledger.js';
import type { DrillRecord } from './record.js';

// How the drill sees its wallets: when each transaction is counted (a query of the wallet shows
// it with its status), and, once the traffic ends, whether each wallet's ledger holds exactly
// what the provider holds.

/** A wallet's confirmed balance in one currency, as its ledger and as the provider have it. */
export interface Difference {
  walletId: string;
  currency: string;
  ledger: string;
  provider: string;
}

/** Marks, until `stop` aborts, each expectation as counted when a query of its wallet first shows it. */
export async function watchCounted(wallets: WalletsClient, record: DrillRecord, stop: AbortSignal): Promise<void> {
  while (!stop.aborted) {
    const open = record.expectations.filter((e) => e.countedAt === undefined);
    for (const walletId of new Set(open.map((e) => e.walletId))) {
      const view = await wallets.state(walletId).catch(() => undefined);
      if (!view) continue; // a worker killed by the chaos command: asked again next round
      const now = Date.now();
      const shown = new Map(view.recentTransactions.map((t) => [t.id, t.status]));
      for (const e of open) {
        // Shown with its status, or one past it: a reversal may come before the watcher looked.
        const status = shown.get(e.txId);
        if (e.walletId === walletId && status !== undefined && statusRank(status) >= statusRank(e.status))
          e.countedAt = now;
      }
    }
    await sleep(250);
  }
}

/** The currencies in which the wallet's ledger differs from the provider's available balance. */
export async function differences(wallets: WalletsClient, provider: ProviderClient, walletId: string) {
  const [view, wallet] = await Promise.all([
    wallets.state(walletId),
    provider.call(readWallet, { params: { walletId } }),
  ]);
  const held = wallet.availableBalances as Record<string, string | number>;
  const currencies = new Set([...Object.keys(view.balances), ...Object.keys(held)]);
  const found: Difference[] = [];
  for (const currency of currencies) {
    const ledger = view.balances[currency]?.confirmed ?? '0';
    const provided = String(held[currency] ?? '0');
    if (compare(ledger, provided) !== 0) found.push({ walletId, currency, ledger, provider: provided });
  }
  return { view, found };
}

export interface Settled {
  /** Wallets whose ledger is exact and that hold nothing unrecorded. */
  exact: string[];
  /** Each wallet that is not, with its first difference (none: it had observations still queued, or did not answer). */
  differing: Array<{ walletId: string; difference?: Difference; view?: WalletView }>;
}

/** Waits until every wallet is exact and every process done, or until `deadline`; what it found last. */
export async function settle(
  wallets: WalletsClient,
  provider: ProviderClient,
  walletIds: string[],
  record: DrillRecord,
  deadline: number,
): Promise<Settled> {
  for (;;) {
    const settled: Settled = { exact: [], differing: [] };
    for (const walletId of walletIds) {
      const seen = await differences(wallets, provider, walletId).catch(() => undefined);
      if (seen && seen.found.length === 0 && seen.view.queued === 0) settled.exact.push(walletId);
      else settled.differing.push({ walletId, difference: seen?.found[0], view: seen?.view });
    }
    const running = record.processes.some((p) => !p.done);
    if ((settled.differing.length === 0 && !running) || Date.now() > deadline) return settled;
    await sleep(1_000);
  }
}
