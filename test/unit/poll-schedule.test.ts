import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  afterCallback,
  afterPoll,
  PENDING_FACTOR,
  pollDelay,
  quietCallsPerDay,
  watchStartsOver,
} from '../../workflows/lib/poll-schedule.js';

const timing = { intervalMs: 60_000, maxMs: 90 * 60_000 };

/** The waits a wallet that stays quiet goes through, poll after poll. */
function quietWaits(polls: number, pending = false): number[] {
  let pace = { quietPolls: 0 };
  const waits: number[] = [];
  for (let i = 0; i < polls; i++) {
    waits.push(pollDelay(timing, pace, { pending }));
    pace = afterPoll(pace, 0);
  }
  return waits;
}

describe('poll schedule: a quiet wallet is asked less and less often', () => {
  it('the wait doubles after every empty poll, from the interval up to the ceiling', () => {
    assert.deepEqual(
      quietWaits(9).map((ms) => ms / 60_000),
      [1, 2, 4, 8, 16, 32, 64, 90, 90],
    );
  });

  it('a wallet that stays quiet costs 16 polls a day at the defaults, within the goal of 24', () => {
    assert.equal(quietCallsPerDay(timing), 16);
    // The first quiet day included: the ramp up costs a few polls more, not many.
    let elapsed = 0;
    let polls = 0;
    for (const wait of quietWaits(1_000)) {
      elapsed += wait;
      if (elapsed > 2 * 86_400_000) break;
      if (elapsed > 86_400_000) polls += 1;
    }
    assert.ok(polls <= 24, `${polls} polls on the second day`);
  });

  it('a poll that found something, or a callback, starts over from the interval', () => {
    const quiet = { quietPolls: 12 };
    assert.equal(pollDelay(timing, afterPoll(quiet, 1), { pending: false }), 60_000);
    assert.equal(pollDelay(timing, afterCallback(), { pending: false }), 60_000);
    assert.equal(pollDelay(timing, afterPoll(quiet, 0), { pending: false }), 90 * 60_000);
  });

  it('while a transaction is pending the wait stays within a few intervals', () => {
    assert.equal(Math.max(...quietWaits(20, true)), PENDING_FACTOR * 60_000);
    assert.equal(
      pollDelay({ intervalMs: 1_000, maxMs: 3_000 }, { quietPolls: 9 }, { pending: true }),
      3_000,
      'never past the ceiling',
    );
  });

  it('a ceiling below the interval keeps the interval, and a long quiet stays finite', () => {
    assert.equal(pollDelay({ intervalMs: 5_000, maxMs: 1_000 }, { quietPolls: 3 }, { pending: false }), 5_000);
    assert.equal(pollDelay(timing, { quietPolls: 10_000 }, { pending: false }), 90 * 60_000);
  });
});

describe('poll schedule: when a running watch starts over', () => {
  const firstWait = { backingOff: false, pending: false };
  const backingOff = { backingOff: true, pending: false };
  const quietPass = { pending: false, providerActive: false };
  const depositPending = { pending: true, providerActive: true };
  const callbackAlone = { pending: false, providerActive: true };

  it('a watch backing off (or polling) starts over when the provider was active or a transaction became pending', () => {
    for (const firstWaitRule of ['kept', 'started-over'] as const) {
      assert.equal(watchStartsOver(backingOff, callbackAlone, firstWaitRule), true, firstWaitRule);
      assert.equal(watchStartsOver(backingOff, depositPending, firstWaitRule), true, firstWaitRule);
      assert.equal(watchStartsOver(backingOff, { pending: true, providerActive: false }, firstWaitRule), true);
      assert.equal(watchStartsOver(backingOff, quietPass, firstWaitRule), false, firstWaitRule);
    }
  });

  it('in its first wait, a watch that keeps it runs on through callbacks: that wait is one interval whatever is pending', () => {
    assert.equal(watchStartsOver(firstWait, depositPending, 'kept'), false);
    assert.equal(watchStartsOver({ backingOff: false, pending: true }, callbackAlone, 'kept'), false);
    assert.equal(watchStartsOver(firstWait, callbackAlone, 'kept'), false);
  });

  it('runs from before wallet-patches-as-one-2 start the first wait over whenever a transaction became pending or settled', () => {
    assert.equal(watchStartsOver(firstWait, depositPending, 'started-over'), true);
    assert.equal(watchStartsOver({ backingOff: false, pending: true }, callbackAlone, 'started-over'), true);
    assert.equal(watchStartsOver(firstWait, callbackAlone, 'started-over'), false);
  });
});
