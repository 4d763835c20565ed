import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sendSteadily } from '../../bench/scale/steady-send.js';

// bench/scale/steady-send.ts: the scale run's callbacks go out at a steady rate; one the ingress
// refuses (a 503 while Temporal is overloaded) is counted as refused, and the rest go on: it must not
// end the run as an unhandled rejection after its wallets took many minutes to open.

describe("the scale run's steady sends", () => {
  it('sends each at its time and keeps the refused apart, without an unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      const started = performance.now();
      const { sent, refused } = await sendSteadily(6, 100, async (i) => {
        if (i === 1) throw new Error('the ingress answered 503');
        await new Promise((r) => setTimeout(r, 30));
        return i;
      });
      await new Promise((r) => setTimeout(r, 20));
      assert.deepEqual(sent, [0, 2, 3, 4, 5]);
      assert.deepEqual(refused, ['the ingress answered 503']);
      // 6 at 100 a second: the last goes out 50 ms after the first.
      assert.ok(performance.now() - started >= 50);
      assert.deepEqual(unhandled, []);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
