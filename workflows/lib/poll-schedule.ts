// When a wallet's follower looks at the provider next. A quiet wallet costs little: the wait
// doubles after every poll that found nothing, from the configured interval up to the ceiling
// (one hour by default: at most 24 calls a day once a wallet has been quiet for a while). A gap
// in the callbacks is likely while a transaction is pending (its confirmation may be the callback
// that gets lost) and right after a callback: then the wait starts again from the interval.

export const DEFAULT_POLL_MAX_MS = 3_600_000;

export interface PollSchedule {
  /** Polls in a row that found nothing new, with no callback in between. */
  quietPolls: number;
}

/** The wait before the next poll. */
export function nextPollDelay(s: PollSchedule, opts: { intervalMs: number; maxMs: number; pending: boolean }): number {
  if (opts.pending) return opts.intervalMs;
  const ceiling = Math.max(opts.intervalMs, opts.maxMs);
  // 2^quietPolls without overflow: 31 doublings already pass any ceiling in milliseconds.
  return Math.min(ceiling, opts.intervalMs * 2 ** Math.min(s.quietPolls, 31));
}

/** After a poll: quiet again, or news that starts the wait over. */
export function afterPoll(s: PollSchedule, foundNews: boolean): PollSchedule {
  return { quietPolls: foundNews ? 0 : s.quietPolls + 1 };
}

/** After a callback: the provider is talking about this wallet; look again soon. */
export function afterCallback(): PollSchedule {
  return { quietPolls: 0 };
}
