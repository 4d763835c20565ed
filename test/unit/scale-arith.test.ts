import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  decades,
  linearFit,
  logScale,
  pacedAt,
  percentile,
  perWalletDay,
  reconcilesEachPeriod,
  turnsInWindow,
} from '../../bench/scale/arith.js';
import { positiveSetting, scaleSizes, steadySetting } from '../../bench/scale.js';
import { checkSteadyFits } from '../../bench/scale/size.js';

describe("the scale run's arithmetic", () => {
  it('takes the nearest-rank percentile, whatever the order given', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i); // 100 … 1
    assert.equal(percentile(values, 50), 50);
    assert.equal(percentile(values, 99), 99);
    assert.equal(percentile(values, 100), 100);
    assert.equal(percentile([7], 99), 7);
    // One slow value in ten is the p99, not hidden by the median.
    assert.equal(percentile([1, 1, 1, 1, 1, 1, 1, 1, 1, 900], 99), 900);
    assert.ok(Number.isNaN(percentile([], 50)));
  });

  it('scales calls counted at a shortened interval back to a real day', () => {
    // 1,000 wallets polling every 60 s for 60 s: one call each; at 90 minutes that is 16 a day.
    assert.equal(
      perWalletDay({
        calls: 1_000,
        wallets: 1_000,
        windowMs: 60_000,
        simIntervalMs: 60_000,
        realIntervalMs: 90 * 60_000,
      }),
      16,
    );
    // Reconciliation every 6 hours: 4 a day, from one each over one shortened period.
    assert.equal(
      perWalletDay({
        calls: 500,
        wallets: 500,
        windowMs: 120_000,
        simIntervalMs: 120_000,
        realIntervalMs: 6 * 3_600_000,
      }),
      4,
    );
    // Twice the calls in the same window is twice the cost.
    assert.equal(
      perWalletDay({
        calls: 2_000,
        wallets: 1_000,
        windowMs: 60_000,
        simIntervalMs: 60_000,
        realIntervalMs: 90 * 60_000,
      }),
      32,
    );
  });

  it('fits a line, and says how well', () => {
    const fit = linearFit([
      [1_000, 0.25],
      [10_000, 2.5],
    ]);
    assert.ok(Math.abs(fit.b - 0.00025) < 1e-12);
    assert.ok(Math.abs(fit.a) < 1e-9);
    assert.equal(fit.r2, 1);
    const bent = linearFit([
      [1, 1],
      [2, 4],
      [3, 9],
      [4, 16],
    ]);
    assert.ok(bent.r2 < 0.97);
    assert.throws(() => linearFit([[1, 1]]), /at least 2 points/);
  });

  it("maps the plot's log axis: decades evenly apart, the ends on the ends", () => {
    const x = logScale(1_000, 100_000, 50, 250);
    assert.equal(x(1_000), 50);
    assert.equal(x(100_000), 250);
    assert.ok(Math.abs(x(10_000) - 150) < 1e-9);
    assert.deepEqual(decades(1_000, 100_000), [1_000, 10_000, 100_000]);
    assert.deepEqual(decades(1_500, 20_000), [1_000, 10_000, 100_000]);
    assert.throws(() => logScale(0, 10, 0, 1), /0 < lo < hi/);
  });

  it('reads the sizes after --scale', () => {
    assert.equal(scaleSizes(['--other']), undefined);
    assert.deepEqual(scaleSizes(['--scale']), [1_000, 10_000, 100_000]);
    assert.deepEqual(scaleSizes(['--scale', '1000,10000']), [1_000, 10_000]);
    assert.equal(scaleSizes(['--scale', 'report']), 'report');
    assert.throws(() => scaleSizes(['--scale', '1k']), /wallet counts/);
  });
});

describe("the scale run's idle window", () => {
  const P = 1_000;
  // 100 wallets opened one every 10 ms over exactly one period.
  const opened = Array.from({ length: 100 }, (_, i) => i * 10);

  it('counts every wallet once in a window of one whole period, whatever when each opened', () => {
    assert.equal(turnsInWindow(opened, P, 1_005, 1_005 + P), 100);
    // An opening that took longer than a period (its first wallets on their second turn) too.
    const slow = Array.from({ length: 100 }, (_, i) => i * 25);
    assert.equal(turnsInWindow(slow, P, 2_600, 2_600 + P), 100);
  });

  it('counts only the wallets whose turn falls in a shorter window, from their opening times', () => {
    // A quarter of a period right after the opening: the wallets opened in its first quarter.
    assert.equal(turnsInWindow(opened, P, 1_000, 1_250), 25);
    // A turn exactly at the window's start counts, one exactly at its end does not.
    assert.equal(turnsInWindow([0], P, 1_000, 1_001), 1);
    assert.equal(turnsInWindow([0], P, 999, 1_000), 0);
  });

  it('does not count a wallet before its first turn, one period after it opened', () => {
    assert.equal(turnsInWindow([500], P, 600, 1_400), 0);
    assert.equal(turnsInWindow([500], P, 600, 1_600), 1);
  });

  it('refuses a window or a period that is no interval', () => {
    assert.throws(() => turnsInWindow(opened, 0, 0, 10), /period > 0/);
    assert.throws(() => turnsInWindow(opened, P, 10, 10), /a window/);
  });

  it('makes calls per wallet-day from calls over turns as from a whole period over all wallets', () => {
    const real = { simIntervalMs: P, realIntervalMs: 90 * 60_000 };
    const whole = perWalletDay({ calls: 100, wallets: 100, windowMs: P, ...real });
    const quarter = perWalletDay({ calls: 25, wallets: turnsInWindow(opened, P, 1_000, 1_250), windowMs: P, ...real });
    assert.equal(quarter, whole);
    assert.equal(whole, 16);
  });

  it('sees a steady background past an opening paced over one period: no sweeps, reconciliations at their share', () => {
    const n = 100;
    const paced = Array.from({ length: n }, (_, i) => pacedAt(i, n, P));
    const reconciling = paced.filter((_, i) => reconcilesEachPeriod(i, 4));
    // Past the opening, every window of a length holds as many turns: 400 ms of a 1,000 ms period.
    for (const from of [1_000, 1_130, 1_777, 2_410]) {
      assert.equal(turnsInWindow(paced, P, from, from + 400), 40);
      assert.equal(turnsInWindow(reconciling, P, from, from + 400), 10);
    }
    // The same wallets opened as fast as they could, in a tenth of the period: sweeps, then nothing.
    const quick = Array.from({ length: n }, (_, i) => i);
    assert.equal(turnsInWindow(quick, P, 1_000, 1_400), 100);
    assert.equal(turnsInWindow(quick, P, 1_400, 1_800), 0);
    // A ratio of 1 (a run that is not steady): every wallet reconciles every period.
    assert.ok(paced.every((_, i) => reconcilesEachPeriod(i, 1)));
  });
});

describe("the scale run's settings", () => {
  it('takes a positive number, or the default when unset', () => {
    assert.equal(positiveSetting('SCALE_IDLE_WINDOW', 60, { SCALE_IDLE_WINDOW: '900' }), 900);
    assert.equal(positiveSetting('SCALE_IDLE_RATE', 10, {}), 10);
  });

  it('runs steady only when SCALE_STEADY is 1, and refuses anything else but 0 or unset', () => {
    assert.equal(steadySetting({ SCALE_STEADY: '1' }), true);
    assert.equal(steadySetting({ SCALE_STEADY: '0' }), false);
    assert.equal(steadySetting({}), false);
    for (const raw of ['yes', 'true', '2'])
      assert.throws(() => steadySetting({ SCALE_STEADY: raw }), new RegExp(`SCALE_STEADY must be 1.*"${raw}"`));
  });

  it('refuses a steady run whose window and callbacks would meet the other wallets reconciling', () => {
    // P = 100 s: the others first reconcile 300 s past the opening.
    const fits = { periodMs: 100_000, marginMs: 10_000, windowMs: 30_000 };
    assert.doesNotThrow(() => checkSteadyFits({ ...fits, callbackSeconds: 60 }));
    assert.throws(
      () => checkSteadyFits({ ...fits, callbackSeconds: 300 }),
      /SCALE_STEADY: .*\(400 s .* before the other wallets first reconcile.*\(300 s\).*SCALE_CALLBACK_SECONDS/,
    );
    // The 100,000-wallet run: P = 5,400 s, a 300 s window.
    assert.doesNotThrow(() =>
      checkSteadyFits({ periodMs: 5_400_000, windowMs: 300_000, marginMs: 15_000, callbackSeconds: 60 }),
    );
  });

  it('refuses a typo before the run starts, naming the setting', () => {
    for (const raw of ['0', '-5', '15m', 'abc'])
      assert.throws(
        () => positiveSetting('SCALE_IDLE_WINDOW', 60, { SCALE_IDLE_WINDOW: raw }),
        new RegExp(`SCALE_IDLE_WINDOW must be a positive number.*"${raw}"`),
      );
  });
});
