import type { Client } from '@temporalio/client';

// Whether Temporal answers, asked in the background, so that /health answers from the last result:
// probes, or anyone flooding /health, never turn into calls to Temporal.

export type TemporalReachability = 'ok' | 'unreachable' | 'unknown';

export interface TemporalHealth {
  /** Settles once the first check is done (within its timeout). */
  firstCheck: Promise<void>;
  /** The last check's result; `unknown` before the first, and when the checks have fallen behind. */
  current(): TemporalReachability;
  /** No more checks; settles once the one under way is done, so that the connection may then be closed. */
  stop(): Promise<void>;
}

export function watchTemporalHealth(
  client: Client,
  opts: { intervalMs?: number; timeoutMs?: number } = {},
): TemporalHealth {
  const intervalMs = opts.intervalMs ?? 5_000;
  const timeoutMs = opts.timeoutMs ?? 2_000;
  let last: { ok: boolean; at: number } | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let underWay: Promise<void> | undefined;
  const check = () => (underWay = ask());
  const ask = async () => {
    let ok = false;
    try {
      await client.withDeadline(Date.now() + timeoutMs, () => client.workflowService.getSystemInfo({}));
      ok = true;
    } catch {
      ok = false;
    }
    last = { ok, at: Date.now() };
    if (!stopped) timer = setTimeout(() => void check(), intervalMs).unref();
  };
  const firstCheck = check();
  return {
    firstCheck,
    current: () => {
      // A result older than a few rounds says nothing of now.
      if (!last || Date.now() - last.at > 3 * intervalMs + timeoutMs) return 'unknown';
      return last.ok ? 'ok' : 'unreachable';
    },
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      // The SDK's retry of a call under way throws once its connection is closed.
      await underWay;
    },
  };
}
