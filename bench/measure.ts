import type { Client } from '@temporalio/client';

// Measuring helpers for the benchmarks: every loop is bounded in count and time, and all traffic
// stays on loopback.

export interface Figure {
  name: string;
  unit: '/s' | 'ms' | 'MB' | 'calls/day' | 'KB/day';
  /** The product's measurement. */
  product: number;
  /** The same thing done by the yardstick, side by side in the same run. */
  yardstick: number;
  /** The ratio to reach (product / yardstick, or yardstick / product when lower is better). */
  goal?: number;
  lowerIsBetter?: boolean;
  /** A figure that is an absolute amount rather than a comparison (yardstick: the goal). */
  absolute?: boolean;
}

/** `npm run bench -- --quick`: each measured span a quarter as long, to see the bench run (noisier figures, not written). */
export const quick = process.argv.includes('--quick');
export const span = (ms: number) => (quick ? ms / 4 : ms);

/**
 * The order of the passes when `count` flows are compared: `count` rounds, each one the flows in turn
 * starting one further on, so that every flow runs once in every place of a round. A slow spell of
 * the shared machine, or a cost that grows as the run goes on (the workflows each pass leaves open),
 * then falls on all of them alike, whatever its shape.
 */
export function rotatedPasses(count: number): number[] {
  return Array.from({ length: count }, (_, round) =>
    Array.from({ length: count }, (_, place) => (round + place) % count),
  ).flat();
}

/** product / yardstick, oriented so that higher is better. */
export function ratio(f: Figure): number {
  return f.lowerIsBetter ? f.yardstick / f.product : f.product / f.yardstick;
}

/** Runs `fn` with `inFlight` calls at once for `ms`; completed calls per second. */
export async function runConcurrently(
  fn: () => Promise<unknown>,
  inFlight: number,
  ms: number,
  maxCalls = 1_000_000,
): Promise<{ rate: number; calls: number }> {
  let calls = 0;
  const start = performance.now();
  const until = start + ms;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (performance.now() < until && calls < maxCalls) {
        await fn();
        calls += 1;
      }
    }),
  );
  return { rate: (calls / (performance.now() - start)) * 1000, calls };
}

/** Offers `perSecond` calls a second for `ms`, whatever the answers' pace; each call's latency in ms. */
export async function timedLoad(fn: () => Promise<unknown>, perSecond: number, ms: number): Promise<number[]> {
  const latencies: number[] = [];
  const pending: Array<Promise<void>> = [];
  const count = Math.floor((perSecond * ms) / 1000);
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    const due = start + (i * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const sent = performance.now();
    pending.push(fn().then(() => void latencies.push(performance.now() - sent)));
  }
  await Promise.all(pending);
  return latencies;
}

/** Runs `fn` on each item, `inFlight` at a time. */
export async function eachConcurrently<T>(
  items: readonly T[],
  inFlight: number,
  fn: (item: T, index: number) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i]!, i);
      }
    }),
  );
}

/** Terminates the workflows a bench left open; one already closed is no error. */
export function terminateAll(client: Client, workflowIds: readonly string[], reason: string): Promise<void> {
  return eachConcurrently(workflowIds, 32, (id) =>
    client.workflow
      .getHandle(id)
      .terminate(reason)
      .catch(() => {}),
  );
}

/**
 * Asks `seen` every 20 ms until it answers true; a flow whose last step never shows (a signal lost,
 * a callback refused) fails the bench after `ms` instead of holding it.
 */
export async function until(seen: () => Promise<boolean>, what: string, ms = 30_000): Promise<void> {
  const deadline = performance.now() + ms;
  while (!(await seen())) {
    if (performance.now() > deadline) throw new Error(`${what}: not seen within ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
