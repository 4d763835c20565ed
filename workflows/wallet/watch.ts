import {
  ActivityCancellationType,
  CancellationScope,
  isCancellation,
  proxyActivities,
  sleep,
} from '@temporalio/workflow';
import type { WalletActivities } from '../../activities/wallets.js';
import type { PollAnswer, PollCursor } from '../../src/provider/transaction-observation.js';
import { afterPoll, pollCeiling, pollDelay, type PollPace, type PollTiming } from '../lib/poll-schedule.js';

// A wallet's watch on the provider: a timer for the first wait, then one activity whose attempts
// are the polls. An attempt that finds nothing fails benignly and Temporal schedules the next one
// after the retry policy's growing interval, so a quiet wallet's polling writes nothing to its
// history; only a change (or a wallet the provider does not know) completes it.

export interface WalletWatch {
  /** Starts a watch unless one is running: the first poll after the pace's wait, with the cursor then. */
  ensure(cursor: () => PollCursor, pace: PollPace, pending: boolean): void;
  /**
   * A running watch set up for another state starts over: one that assumed a transaction pending
   * (or none) when that changed, and one backing off when the provider was active.
   */
  refresh(now: { pending: boolean; providerActive: boolean }): void;
  /** The answer of a watch that ended (a failure is `failed`), once. */
  take(): PollAnswer | 'failed' | undefined;
  readonly ended: boolean;
}

export function walletWatch(walletId: string, timing: PollTiming): WalletWatch {
  let running: { scope: CancellationScope; backingOff: boolean; pending: boolean } | undefined;
  let answer: PollAnswer | 'failed' | undefined;
  return {
    ensure(cursor, pace, pending) {
      if (running || answer) return;
      const { watchWalletTransactions } = proxyActivities<WalletActivities>({
        startToCloseTimeout: '1 minute',
        // A watch given up for a fresh one need not wait for an attempt under way.
        cancellationType: ActivityCancellationType.TRY_CANCEL,
        retry: {
          initialInterval: pollDelay(timing, afterPoll(pace, 0), { pending }),
          backoffCoefficient: 2,
          maximumInterval: pollCeiling(timing, pending),
        },
      });
      const scope = new CancellationScope();
      // Past its first interval the watch is backing off: a callback then starts it over.
      const watch = { scope, backingOff: pace.quietPolls > 0, pending };
      running = watch;
      scope
        .run(async () => {
          await sleep(pollDelay(timing, pace, { pending }));
          watch.backingOff = true;
          return watchWalletTransactions(walletId, cursor());
        })
        .then(
          (answered) => void (answer = answered),
          (err: unknown) => void (isCancellation(err) ? undefined : (answer = 'failed')),
        )
        .finally(() => {
          if (running === watch) running = undefined;
        });
    },
    refresh({ pending, providerActive }) {
      if (running && (running.pending !== pending || (providerActive && running.backingOff))) {
        running.scope.cancel();
        running = undefined;
      }
    },
    take() {
      const taken = answer;
      answer = undefined;
      return taken;
    },
    get ended() {
      return answer !== undefined;
    },
  };
}
