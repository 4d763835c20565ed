// When a wallet's workflow next asks the provider for its transactions. Polling only recovers lost
// callbacks, so the wait doubles after every poll that found nothing, from the interval up to its
// ceiling; a callback or a poll that found something starts over, and while a transaction is
// pending the wait stays within PENDING_FACTOR intervals, so that its confirmation is seen soon.

export interface PollTiming {
  /** The shortest wait, after activity (WALLET_POLL_INTERVAL). */
  intervalMs: number;
  /** The longest wait, once the wallet is quiet (WALLET_POLL_MAX). */
  maxMs: number;
}

/** Polls in a row that found nothing, carried across continue-as-new. */
export interface PollPace {
  quietPolls: number;
}

export const PENDING_FACTOR = 8;

/** The longest wait: the ceiling, or a few intervals while a transaction is pending. */
export function pollCeiling(timing: PollTiming, pending: boolean): number {
  return Math.max(
    timing.intervalMs,
    pending ? Math.min(timing.maxMs, timing.intervalMs * PENDING_FACTOR) : timing.maxMs,
  );
}

export function pollDelay(timing: PollTiming, pace: PollPace, { pending }: { pending: boolean }): number {
  // 2 ** 40 intervals is past any ceiling: the exponent is capped so the product stays finite.
  return Math.min(pollCeiling(timing, pending), timing.intervalMs * 2 ** Math.min(pace.quietPolls, 40));
}

/** After a poll: found something, start over; found nothing, wait longer next time. */
export function afterPoll(pace: PollPace, found: number): PollPace {
  return { quietPolls: found > 0 ? 0 : pace.quietPolls + 1 };
}

/** After a callback: the provider is active, so a lost callback is likely again soon. */
export function afterCallback(): PollPace {
  return { quietPolls: 0 };
}

/** Provider calls a day that polling costs a wallet that stays quiet, once its wait is at the ceiling. */
export function quietCallsPerDay(timing: PollTiming): number {
  return 86_400_000 / Math.max(timing.intervalMs, timing.maxMs);
}

/** What a running watch was set up for. */
export interface WatchSetUp {
  /** Past its first wait at the interval: a wait backing off, or polls under way. */
  backingOff: boolean;
  /** Whether a transaction was pending when its wait (or, once polling, its retry policy) was set. */
  pending: boolean;
}

/** How a run treats its watch's first wait: kept through callbacks (wallet-patches-as-one-2), or started over. */
export type FirstWaitRule = 'kept' | 'started-over';

/**
 * Whether a running watch starts over after a pass of the loop. A wait backing off is too long once
 * the provider was active, and polls under way keep the retry policy they were scheduled with, so
 * either starts over when the provider was active or a transaction became pending or settled. The
 * first wait lasts one interval whatever is pending: kept, it runs on, and its polls take the
 * wallet's state when they are scheduled; runs from before started it over, a timer cancelled and
 * one started for every callback that moved a transaction in or out of pending.
 */
export function watchStartsOver(
  watch: WatchSetUp,
  now: { pending: boolean; providerActive: boolean },
  firstWait: FirstWaitRule,
): boolean {
  const pendingChanged = watch.pending !== now.pending;
  if (watch.backingOff) return pendingChanged || now.providerActive;
  return firstWait === 'started-over' && pendingChanged;
}
