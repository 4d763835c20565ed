import { log, metricMeter, proxyActivities, sleep, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { WalletActivities } from '../../activities/wallets.js';
import { BalanceDrift } from '../../src/temporal/search-attributes.js';
import { BOUNDED_LOOKUP } from '../lib/activity-options.js';
import type { Drift, Reconciliation } from './drift.js';
import { balanceDriftToWrite } from './shown-attributes.js';

// A wallet's ledger against the provider's own balances (the wallet lookup). A drift is shown (the
// query, BalanceDrift, a metric) and never corrected: a drift is a question for a person.

const lookups = proxyActivities<WalletActivities>(BOUNDED_LOOKUP);

/** What a reconciliation needs of the run it checks. */
export interface WalletToReconcile {
  walletId: string;
  /** The ledger against the provider's available balances (wallet/drift.ts `findDrift`). */
  driftFrom: (providerAvailable: Record<string, string | number>) => Drift[];
  /** Resolves once a poll made after the call has been recorded. */
  freshPoll: () => Promise<void>;
}

/**
 * Whether BalanceDrift is written only when it changes (wallet-drift-shown-on-change), asked as a
 * reconciliation shows what it found: runs recorded before it wrote it at every reconciliation.
 */
export type DriftShownOnChange = () => boolean;

/** For runs that write BalanceDrift at every reconciliation, as they did (wallet/legacy-polling.ts). */
export const writtenEveryTime: DriftShownOnChange = () => false;

/**
 * The balances come first: only when they disagree is a poll worth its call (what a lost callback
 * carried may explain it), and they are compared again. Runs from before wallet-quiet-polling
 * polled first (wallet/legacy-polling.ts).
 */
export async function reconcileWallet(
  wallet: WalletToReconcile,
  onChange: DriftShownOnChange,
): Promise<Reconciliation> {
  let found = await compareBalances(wallet);
  if (found.drift.length > 0) {
    await wallet.freshPoll();
    found = await compareBalances(wallet);
  }
  return shown(wallet.walletId, found, onChange);
}

/** The ledger against the provider's balances as they are now. */
export async function compareBalances(wallet: WalletToReconcile): Promise<Reconciliation> {
  const provider = await lookups.readWalletBalances(wallet.walletId);
  return { checkedAt: provider.checkedAt, drift: wallet.driftFrom(provider.available) };
}

/**
 * Shows what a reconciliation found: BalanceDrift (only when it changes, once the run has
 * wallet-drift-shown-on-change), and a metric and a warning for every drift found.
 */
export function shown(walletId: string, found: Reconciliation, onChange: DriftShownOnChange): Reconciliation {
  const drifted = found.drift.length > 0;
  if (!onChange()) upsertSearchAttributes([{ key: BalanceDrift, value: drifted }]);
  else {
    const value = balanceDriftToWrite(workflowInfo().typedSearchAttributes.get(BalanceDrift), drifted);
    if (value !== undefined) upsertSearchAttributes([{ key: BalanceDrift, value }]);
  }
  if (drifted) {
    metricMeter
      .createCounter(
        'payflows_balance_drift_found',
        'reconciliations',
        'Reconciliations that found the ledger and the provider apart',
      )
      .add(1);
    log.warn('the ledger and the provider disagree on the balance; not corrected', {
      walletId,
      drift: found.drift,
    });
  }
  return found;
}

/**
 * Compares at every interval. A run that continues a wallet waits what is left of the interval
 * since the last comparison, so that a busy wallet, continuing-as-new more often than the
 * interval, is still reconciled. A comparison that cannot read the provider waits for the next.
 */
export async function reconcileEvery(
  intervalMs: number,
  last: Reconciliation | undefined,
  reconcile: () => Promise<unknown>,
): Promise<never> {
  const sinceLast = last ? workflowInfo().runStartTime.getTime() - last.checkedAt : 0;
  let wait = last ? Math.max(1_000, intervalMs - sinceLast) : intervalMs;
  for (;;) {
    await sleep(wait);
    wait = intervalMs;
    await reconcile().catch((err: unknown) => {
      log.warn('the reconciliation could not read the provider; will try at the next interval', {
        error: (err as Error).message,
      });
    });
  }
}
