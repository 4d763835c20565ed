import {
  ActivityFailure,
  ApplicationFailure,
  log,
  proxyActivities,
  proxyLocalActivities,
  sleep,
} from '@temporalio/workflow';
import type { WalletActivities } from '../../activities/wallets.js';
import type { PollAnswer, PollCursor } from '../../src/provider/transaction-observation.js';
import { POLL } from '../lib/activity-options.js';
import { providerRefusal } from '../lib/refusal.js';

// One poll of a wallet now, as the wallet's workflow makes it: since the patch
// wallet-quiet-polling a local activity with a cursor; before it (runs that started earlier) a
// regular activity that lists the whole page, and a timer every interval that makes it due.

// A poll is a short read whose answer is small: a local activity, recorded as one marker instead
// of a round of events. Bounded: the next poll comes anyway.
const polls = proxyLocalActivities<WalletActivities>(POLL);
const legacyPolls = proxyActivities<WalletActivities>(POLL);

/** A poll that fails is 'failed' (the next one comes anyway), never the wallet's workflow failing. */
export async function pollNow(walletId: string, quiet: boolean, cursor: PollCursor): Promise<PollAnswer | 'failed'> {
  try {
    if (quiet) return await polls.pollWalletTransactions(walletId, cursor);
    // Newest first from the provider: oldest first into the ledger.
    return { changed: [...(await legacyPolls.listWalletTransactions(walletId))].reverse(), cursor };
  } catch (err) {
    // A local activity's last failure can arrive unwrapped (its ApplicationFailure) as well.
    if (!(err instanceof ActivityFailure || err instanceof ApplicationFailure)) throw err;
    log.warn('polling the wallet failed; will poll again at the next interval', { error: (err.cause ?? err).message });
    // 404: the wallet is not this account's (or no longer exists).
    return providerRefusal(err)?.status === 404 ? { notFound: true } : 'failed';
  }
}

/** Before wallet-quiet-polling: a poll is due every interval, whatever happened. */
export function legacyPollTimer(intervalMs: number, due: () => void): void {
  void (async () => {
    for (;;) {
      await sleep(intervalMs);
      due();
    }
  })();
}
