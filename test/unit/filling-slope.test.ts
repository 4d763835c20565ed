import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeReadings, type FillingReading, perCachedWallet } from '../helpers/filling-slope.js';

// The cache-eviction test's figure per cached wallet, which it holds to the sizing's line within
// 20 %. A worker lets go of about 7 MB of its main thread's heap some seconds after
// it starts polling (measured at rest, with no wallet): readings every 16 wallets gave four slopes, and that release could
// spoil two of them and so their median.

const MB = 1e6;
const PER_WALLET = 0.125 * MB;

/** Readings every `step` wallets up to 80, growing PER_WALLET each, with `release` bytes let go at the readings given. */
function readings(step: number, release: Map<number, number> = new Map()): FillingReading[] {
  const out: FillingReading[] = [];
  let released = 0;
  for (let count = step; count <= 80; count += step) {
    released += release.get(count) ?? 0;
    const heap = 110 * MB + count * PER_WALLET - released;
    out.push({ count, heap, rss: heap * 1.5 });
  }
  return out;
}

const within = (actual: number, expected: number) =>
  assert.ok(Math.abs(actual / expected - 1) <= 0.01, `${actual / MB} MB, not ${expected / MB} MB`);

describe('perCachedWallet: the slope of the memory over the wallets cached', () => {
  it('reads the cost per wallet from steady readings', () => {
    within(perCachedWallet(readings(8), 'heap'), PER_WALLET);
    within(perCachedWallet(readings(8), 'rss'), PER_WALLET * 1.5);
  });

  it('every 8 wallets, a 7 MB release split over two readings anywhere leaves the figure alone', () => {
    for (let at = 16; at <= 72; at += 8)
      within(
        perCachedWallet(
          readings(
            8,
            new Map([
              [at, 4 * MB],
              [at + 8, 3 * MB],
            ]),
          ),
          'heap',
        ),
        PER_WALLET,
      );
  });

  it('every 16 wallets, as before, the same release moved the figure far from the line', () => {
    const figure = perCachedWallet(
      readings(
        16,
        new Map([
          [32, 4 * MB],
          [48, 3 * MB],
        ]),
      ),
      'heap',
    );
    assert.ok(figure < 0.8 * PER_WALLET, `${figure / MB} MB`);
  });

  it('refuses readings that give no slope, saying why', () => {
    assert.throws(() => perCachedWallet([{ count: 8, heap: 1, rss: 1 }], 'heap'), /1 reading\(s\); a slope needs two/);
    assert.throws(
      () =>
        perCachedWallet(
          [
            { count: 16, heap: 1, rss: 1 },
            { count: 16, heap: 2, rss: 2 },
          ],
          'rss',
        ),
      /reading 1 counts 16 wallets, not more than the 16 before it/,
    );
  });

  it('describes the readings in MB for a failure message', () => {
    assert.equal(describeReadings([{ count: 8, heap: 111 * MB, rss: 200.5 * MB }]), '8: heap 111.000, RSS 200.500');
  });
});
