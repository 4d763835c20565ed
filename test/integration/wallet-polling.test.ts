import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { WalletsClient } from '../../src/client/wallets.js';
import { eventually, startStack, type Stack } from '../helpers/stack.js';

// A quiet wallet costs little: its follower polls less and less often, up to the ceiling, and
// comes back to the interval as soon as the provider talks about the wallet (a callback, a
// pending transaction). Read from the timers the workflow set, not from a clock.

const durationMs = (d: { seconds?: unknown; nanos?: number | null } | null | undefined) => Number(d?.seconds ?? 0) * 1000 + Math.round((d?.nanos ?? 0) / 1e6);

describe('wallet polling that costs what is needed', () => {
  let stack: Stack;
  let wallets: WalletsClient;
  before(async () => {
    stack = await startStack();
    wallets = new WalletsClient(stack.client, { taskQueue: stack.taskQueue, pollIntervalMs: 200, pollMaxMs: 1_600 });
  });
  after(async () => stack?.stop());

  /** The waits between polls, in the order the workflow set them, each with the event id it was set at. */
  async function pollWaits(walletId: string): Promise<Array<{ ms: number; eventId: number }>> {
    const events = (await stack.client.workflow.getHandle(`wallet:${walletId}`).fetchHistory()).events ?? [];
    return events
      .filter((e) => e.timerStartedEventAttributes)
      .map((e) => ({ ms: durationMs(e.timerStartedEventAttributes!.startToFireTimeout), eventId: Number(e.eventId) }))
      .filter((t) => t.ms <= 1_600); // not the reconciliation's hours
  }

  it('doubles the wait while quiet up to the ceiling, and keeps to the interval while a deposit is pending', async () => {
    const { walletId } = await wallets.open({ name: `quiet-${randomUUID().slice(0, 8)}` });
    const quiet = await eventually(async () => {
      const waits = await pollWaits(walletId);
      assert.ok(waits.length >= 6, `${waits.length} waits so far`);
      return waits;
    }, 60_000, 500);
    // From the interval, never shorter than the wait before (the first polls may count twice:
    // the one a new run makes at once, and the first of the schedule), up to the ceiling.
    const ms = quiet.map((w) => w.ms);
    assert.equal(ms[0], 200);
    assert.ok(ms.every((m, i) => i === 0 || (m >= ms[i - 1]! && m <= 4 * ms[i - 1]!)), ms.join(', '));
    assert.equal(ms.at(-1), 1_600, ms.join(', '));

    // A pending deposit (its callback arrives): the confirmation may be the callback that gets
    // lost, so the wallet is polled at the interval until it confirms.
    await stack.op('POST', `/sandbox/wallets/${walletId}/deposits`, { currency: 'BTC', amount: 0.1 });
    await eventually(async () => assert.equal((await wallets.state(walletId)).balances.BTC?.pending, 0.1));
    const events = (await stack.client.workflow.getHandle(`wallet:${walletId}`).fetchHistory()).events ?? [];
    const signalled = Number(events.find((e) => e.workflowExecutionSignaledEventAttributes)!.eventId);
    const afterSignal = await eventually(async () => {
      const later = (await pollWaits(walletId)).filter((w) => w.eventId > signalled);
      assert.ok(later.length >= 4, `${later.length} waits since the callback`);
      return later;
    }, 60_000, 500);
    assert.deepEqual(afterSignal.slice(0, 4).map((w) => w.ms), [200, 200, 200, 200]);
    await stack.client.workflow.getHandle(`wallet:${walletId}`).terminate('test done');
  });
});
