import { ActivityFailure, ApplicationFailure, log, proxyLocalActivities } from '@temporalio/workflow';
import type { WalletActivities } from '../../activities/wallets.js';
import type { PollAnswer, PollCursor } from '../../src/provider/transaction-observation.js';
import { POLL } from '../lib/activity-options.js';
import { providerRefusal } from '../lib/refusal.js';

// One poll of a wallet now: what changed since a cursor. A short read with a small answer, so a
// local activity, recorded as one marker; bounded, as the next poll comes anyway.
const polls = proxyLocalActivities<WalletActivities>(POLL);

export async function pollNow(walletId: string, cursor: PollCursor): Promise<PollAnswer | 'failed'> {
  try {
    return await polls.pollWalletTransactions(walletId, cursor);
  } catch (err) {
    return pollFailed(err);
  }
}

/** A poll that fails is 'failed' (the next one comes anyway), never the wallet's workflow failing. */
export function pollFailed(err: unknown): PollAnswer | 'failed' {
  // A local activity's last failure can arrive unwrapped (its ApplicationFailure) as well.
  if (!(err instanceof ActivityFailure || err instanceof ApplicationFailure)) throw err;
  log.warn('polling the wallet failed; will poll again at the next interval', { error: (err.cause ?? err).message });
  // 404: the wallet is not this account's (or no longer exists).
  return providerRefusal(err)?.status === 404 ? { notFound: true } : 'failed';
}
