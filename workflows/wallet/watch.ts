import {
  ActivityCancellationType,
  CancellationScope,
  isCancellation,
  proxyActivities,
  sleep,
} from '@temporalio/workflow';
import type { WalletActivities } from '../../activities/wallets.js';
import type { PollAnswer, PollCursor } from '../../src/provider/transaction-observation.js';
import {
  afterPoll,
  type FirstWaitRule,
  pollCeiling,
  pollDelay,
  type PollPace,
  type PollTiming,
  type WatchSetUp,
  watchStartsOver,
} from '../lib/poll-schedule.js';

// A wallet's watch on the provider: a timer for the first wait, then one activity whose attempts
// are the polls. An attempt that finds nothing fails benignly and Temporal schedules the next one
// after the retry policy's growing interval, so a quiet wallet's polling writes nothing to its
// history; only a change (or a wallet the provider does not know) completes it. When a running
// watch starts over is a pure rule (lib/poll-schedule.ts `watchStartsOver`).

export interface WalletWatch {
  /**
   * Starts a watch unless one is running: the first poll after the pace's wait, with the cursor then.
   * `pending` answers whether a transaction is pending now.
   */
  ensure(cursor: () => PollCursor, pace: PollPace, pending: () => boolean): void;
  /**
   * A running watch set up for another state starts over (`watchStartsOver`): one backing off or
   * polling when the provider was active or a transaction became pending or settled; in its first
   * wait, only under the rule of runs from before wallet-patches-as-one-2.
   */
  refresh(now: { pending: boolean; providerActive: boolean }): void;
  /** The answer of a watch that ended (a failure is `failed`), once. */
  take(): PollAnswer | 'failed' | undefined;
  readonly ended: boolean;
}

/** How the watch treats its first wait: `kept` through callbacks from wallet-patches-as-one-2 on. */
export interface WatchRules {
  firstWait: FirstWaitRule;
}

export function walletWatch(walletId: string, timing: PollTiming, rules: WatchRules): WalletWatch {
  let running: (WatchSetUp & { scope: CancellationScope }) | undefined;
  let answer: PollAnswer | 'failed' | undefined;
  const polls = (pace: PollPace, pending: boolean) =>
    proxyActivities<WalletActivities>({
      startToCloseTimeout: '1 minute',
      // A watch given up for a fresh one need not wait for an attempt under way.
      cancellationType: ActivityCancellationType.TRY_CANCEL,
      retry: {
        initialInterval: pollDelay(timing, afterPoll(pace, 0), { pending }),
        backoffCoefficient: 2,
        maximumInterval: pollCeiling(timing, pending),
      },
    });
  return {
    ensure(cursor, pace, pending) {
      if (running || answer) return;
      const scope = new CancellationScope();
      // Past its first interval the watch is backing off: a callback then starts it over.
      const watch = { scope, backingOff: pace.quietPolls > 0, pending: pending() };
      running = watch;
      scope
        .run(async () => {
          await sleep(pollDelay(timing, pace, { pending: watch.pending }));
          watch.backingOff = true;
          // A first wait kept through callbacks polls as the wallet is now.
          if (rules.firstWait === 'kept') watch.pending = pending();
          const { watchWalletTransactions } = polls(pace, watch.pending);
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
    refresh(now) {
      if (running && watchStartsOver(running, now, rules.firstWait)) {
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
