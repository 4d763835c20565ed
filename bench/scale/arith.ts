// The scale run's arithmetic, pure so that a unit test holds it: percentiles of latencies, a rate
// measured over shortened intervals scaled back to a real day, and the straight-line fit that
// says whether a cost grows linearly with the number of wallets.

/** The nearest-rank percentile (p in 0..100) of `values`; NaN for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(rank, 1)) - 1]!;
}

/**
 * Calls per wallet per real day, from `calls` counted over `windowMs` across `wallets` that ran
 * with an interval shortened from `realIntervalMs` to `simIntervalMs`: the wallets call once per
 * interval, so a real day holds realIntervalMs / simIntervalMs times fewer calls than a day at
 * the shortened pace.
 */
export function perWalletDay(opts: {
  calls: number;
  wallets: number;
  windowMs: number;
  simIntervalMs: number;
  realIntervalMs: number;
}): number {
  const perWalletPerMs = opts.calls / opts.wallets / opts.windowMs;
  return perWalletPerMs * 86_400_000 * (opts.simIntervalMs / opts.realIntervalMs);
}

/**
 * The turns to call that fell in [from, to): a wallet opened at t calls once a period, at t + P,
 * t + 2P, …. A window of one whole period holds one turn of every wallet past its first, whatever
 * when each opened; a shorter one holds the turns of the wallets whose phase falls in it, which
 * their opening times say exactly. Calls counted in the window over these turns are calls per
 * wallet per period.
 */
export function turnsInWindow(openedAt: readonly number[], periodMs: number, from: number, to: number): number {
  if (!(periodMs > 0) || !(to > from))
    throw new Error(`turns need a period > 0 and a window, got ${periodMs}, ${from}..${to}`);
  let turns = 0;
  for (const t of openedAt) {
    const first = Math.max(1, Math.ceil((from - t) / periodMs));
    const last = Math.ceil((to - t) / periodMs) - 1; // the last turn before `to`
    if (last >= first) turns += last - first + 1;
  }
  return turns;
}

/**
 * When, past the opening's start, the i-th of n wallets opens in a run paced over one period: one
 * every period / n, so that their turns (+P, +2P, …) tile the period past the opening, a steady
 * n / P a second instead of sweeps at the opening's own pace.
 */
export function pacedAt(i: number, n: number, periodMs: number): number {
  return (i * periodMs) / n;
}

/**
 * Whether the i-th wallet reconciles every period: one in `ratio`, spread through the opening so that
 * their turns are steady too (the others reconcile every `ratio` periods); all of them when ratio is 1.
 */
export function reconcilesEachPeriod(i: number, ratio: number): boolean {
  return i % ratio === 0;
}

/** Least-squares y = a + b·x; r2 is 1 for points on a line. */
export function linearFit(points: ReadonlyArray<readonly [number, number]>): { a: number; b: number; r2: number } {
  const n = points.length;
  if (n < 2) throw new Error(`a line needs at least 2 points, got ${n}`);
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const syy = points.reduce((s, [, y]) => s + (y - my) ** 2, 0);
  if (sxx === 0) throw new Error('a line needs points at two different x');
  const b = sxy / sxx;
  return { a: my - b * mx, b, r2: syy === 0 ? 1 : (sxy * sxy) / (sxx * syy) };
}

/** Maps [lo, hi] on a log10 scale onto [from, to] (pixels); lo and hi must be positive. */
export function logScale(lo: number, hi: number, from: number, to: number): (v: number) => number {
  if (!(lo > 0 && hi > lo)) throw new Error(`a log scale needs 0 < lo < hi, got ${lo}..${hi}`);
  const [l, h] = [Math.log10(lo), Math.log10(hi)];
  return (v) => from + ((Math.log10(v) - l) / (h - l)) * (to - from);
}

/** Powers of ten that cover [lo, hi]: the decades a log axis is drawn with. */
export function decades(lo: number, hi: number): number[] {
  const out: number[] = [];
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) out.push(10 ** e);
  return out;
}
