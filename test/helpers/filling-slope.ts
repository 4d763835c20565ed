import { percentile } from '../../bench/scale/arith.js';

// What one more cached wallet costs a worker, from readings of its memory taken while its cache
// fills: the median of the slopes between consecutive readings. A worker lets go of some MB of its
// main thread's heap a few seconds after it starts polling, at a moment that varies with the
// machine's load: a step down in the readings, sometimes split over two of them. The step spoils
// the slopes it falls in, not their median, when the readings are many enough: with a reading every
// 8 wallets of 80, two spoiled slopes of nine leave it alone.

export type FillingReading = { count: number; heap: number; rss: number };

/** Bytes per cached wallet of `figure`: the median of the slopes between consecutive readings. */
export function perCachedWallet(readings: readonly FillingReading[], figure: 'heap' | 'rss'): number {
  if (readings.length < 2)
    throw new Error(`perCachedWallet: ${readings.length} reading(s); a slope needs two, taken at different counts`);
  const slopes = readings.slice(1).map((r, i) => {
    const before = readings[i]!;
    if (r.count <= before.count)
      throw new Error(
        `perCachedWallet: reading ${i + 1} counts ${r.count} wallets, not more than the ${before.count} before it`,
      );
    return (r[figure] - before[figure]) / (r.count - before.count);
  });
  return percentile(slopes, 50);
}

/** The readings as a person reads them: wallets, heap and RSS in MB. */
export function describeReadings(readings: readonly FillingReading[]): string {
  const mb = (bytes: number) => (bytes / 1e6).toFixed(3);
  return readings.map((r) => `${r.count}: heap ${mb(r.heap)}, RSS ${mb(r.rss)}`).join('; ');
}
