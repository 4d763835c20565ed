import { ActivityCancellationType, CancellationScope, isCancellation, proxyActivities, sleep } from '@temporalio/workflow';
import type { WalletActivities } from '../../activities/wallets.js';
import type { PollAnswer, PollCursor } from '../../src/provider/transaction-observation.js';
import { pollCeiling, pollDelay, type PollPace, type PollTiming } from './poll-schedule.js';

// A wallet's watch on the provider: one activity whose attempts are the polls. An attempt that
// finds nothing fails benignly and Temporal schedules the next one after the retry policy's
// growing interval, so a quiet wallet's polling writes nothing to its history; only a change (or
// a wallet the provider does not know) completes it.

export interface WalletWatch {
  /** Starts a watch unless one is running; the first attempt polls only if `pollAtOnce`. */
  ensure(cursor: PollCursor, pace: PollPace, pending: boolean, pollAtOnce?: boolean): void;
  /** The provider is active: a watch that has been backing off starts over from the interval. */
  restartIfBackedOff(): void;
  /** The answer of a watch that ended (a failure is `failed`), once. */
  take(): PollAnswer | 'failed' | undefined;
  readonly ended: boolean;
}

export function walletWatch(walletId: string, timing: PollTiming): WalletWatch {
  let running: { scope: CancellationScope; backingOff: boolean } | undefined;
  let answer: PollAnswer | 'failed' | undefined;
  return {
    ensure(cursor, pace, pending, pollAtOnce = false) {
      if (running || answer) return;
      const { watchWalletTransactions } = proxyActivities<WalletActivities>({
        startToCloseTimeout: '1 minute',
        // A watch given up for a fresh one need not wait for an attempt under way.
        cancellationType: ActivityCancellationType.TRY_CANCEL,
        retry: { initialInterval: pollDelay(timing, pace, pending), backoffCoefficient: 2, maximumInterval: pollCeiling(timing, pending) },
      });
      const scope = new CancellationScope();
      const watch = { scope, backingOff: false };
      running = watch;
      // Past its first interval the watch is backing off: a callback then starts it over. One
      // timer a watch (not a poll), cancelled with it.
      scope.run(() => sleep(timing.intervalMs)).then(
        () => void (watch.backingOff = true),
        () => undefined,
      );
      scope
        .run(() => watchWalletTransactions(walletId, cursor, pollAtOnce))
        .then(
          (a) => void (answer = a),
          (err: unknown) => void (isCancellation(err) ? undefined : (answer = 'failed')),
        )
        .finally(() => {
          if (running === watch) running = undefined;
        });
    },
    restartIfBackedOff() {
      if (running?.backingOff) {
        running.scope.cancel();
        running = undefined;
      }
    },
    take() {
      const a = answer;
      answer = undefined;
      return a;
    },
    get ended() {
      return answer !== undefined;
    },
  };
}
