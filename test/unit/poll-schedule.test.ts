import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { afterCallback, afterPoll, DEFAULT_POLL_MAX_MS, nextPollDelay, type PollSchedule } from '../../workflows/lib/poll-schedule.js';

const MINUTE = 60_000;
const opts = { intervalMs: MINUTE, maxMs: DEFAULT_POLL_MAX_MS, pending: false };

describe('when a wallet is polled', () => {
  it('a quiet wallet waits twice as long after each empty poll, up to the ceiling', () => {
    let s: PollSchedule = { quietPolls: 0 };
    const waits: number[] = [];
    for (let i = 0; i < 9; i++) {
      waits.push(nextPollDelay(s, opts) / MINUTE);
      s = afterPoll(s, false);
    }
    assert.deepEqual(waits, [1, 2, 4, 8, 16, 32, 60, 60, 60]);
  });

  it('an idle wallet costs at most 24 provider calls a day after its first quiet day', () => {
    let s: PollSchedule = { quietPolls: 0 };
    let t = 0;
    let callsOnDayTwo = 0;
    while (t < 2 * 86_400_000) {
      t += nextPollDelay(s, opts);
      s = afterPoll(s, false);
      if (t > 86_400_000 && t <= 2 * 86_400_000) callsOnDayTwo += 1;
    }
    assert.ok(callsOnDayTwo <= 24, `${callsOnDayTwo} calls`);
  });

  it('looks again after the interval while a transaction is pending, after news and after a callback', () => {
    const quiet: PollSchedule = { quietPolls: 6 };
    assert.equal(nextPollDelay(quiet, { ...opts, pending: true }), MINUTE);
    assert.equal(nextPollDelay(afterPoll(quiet, true), opts), MINUTE);
    assert.equal(nextPollDelay(afterCallback(), opts), MINUTE);
  });

  it('keeps to the interval when the ceiling is below it, and never overflows', () => {
    assert.equal(nextPollDelay({ quietPolls: 5 }, { intervalMs: MINUTE, maxMs: 1_000, pending: false }), MINUTE);
    assert.equal(nextPollDelay({ quietPolls: 10_000 }, opts), DEFAULT_POLL_MAX_MS);
  });
});
