import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { temporal } from '@temporalio/proto';
import { request } from 'undici';
import { createWallet } from '../../src/provider/endpoints.js';
import { callbackSignature } from '../../src/provider/signing.js';
import { WalletsClient } from '../../workflows/wallet/client.js';
import { walletQuery, walletWorkflowId } from '../../workflows/wallet/messages.js';
import { assertFields } from '../helpers/assert.js';
import { eventually, startStack, type Stack } from '../helpers/stack.js';
import { walletSrn } from '../../src/provider/srn.js';

// A quiet wallet costs little: no poll of a wallet just opened, polls that write nothing to
// history at intervals that double up to WALLET_POLL_MAX, and activity that starts them over.
// Read from the wallet's own history and pending activity, as an operator would in the UI.

type Event = temporal.api.history.v1.IHistoryEvent;
const INTERVAL = 200;
const CEILING = 1_600;

const ms = (d: { seconds?: unknown; nanos?: number | null } | null | undefined) =>
  Number(d?.seconds ?? 0) * 1000 + Math.round((d?.nanos ?? 0) / 1e6);
/** The waits before each watch's first poll. */
const timers = (events: Event[]) =>
  events.flatMap((e, at) =>
    e.timerStartedEventAttributes ? [{ at, ms: ms(e.timerStartedEventAttributes.startToFireTimeout) }] : [],
  );
/** The watches the wallet scheduled, with their retry policy's intervals. */
const watches = (events: Event[]) =>
  events.flatMap((event, at) => {
    const scheduled = event.activityTaskScheduledEventAttributes;
    return scheduled?.activityType?.name === 'watchWalletTransactions'
      ? [
          {
            at,
            initial: ms(scheduled.retryPolicy?.initialInterval),
            max: ms(scheduled.retryPolicy?.maximumInterval),
            backoff: scheduled.retryPolicy?.backoffCoefficient,
          },
        ]
      : [];
  });

describe('wallet: polling that costs what is needed', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ pollIntervalMs: INTERVAL, pollMaxMs: CEILING });
  });
  after(async () => stack?.stop());

  /** The wallet's workflow, for a wallet opened by name or followed by its id. */
  const follow = (workflowId: string) => {
    const handle = stack.client.workflow.getHandle(workflowId);
    return {
      handle,
      events: async () => (await handle.fetchHistory()).events ?? [],
      /**
       * The watch's attempts so far and the history's length; `watch` says where its attempt is
       * (its state, when it last started, why the one before failed), for a failure's message.
       */
      progress: async () => {
        const raw = (await handle.describe()).raw;
        const pending = raw.pendingActivities?.[0];
        const started = pending?.lastStartedTime?.seconds;
        return {
          attempt: pending?.attempt ?? 0,
          historyLength: Number(raw.workflowExecutionInfo?.historyLength ?? 0),
          watch: {
            state: pending?.state,
            lastStarted: started == null ? undefined : new Date(Number(started) * 1000).toISOString(),
            lastFailure: pending?.lastFailure?.message,
            at: new Date().toISOString(),
          },
        };
      },
    };
  };

  it('a quiet wallet is polled at intervals that double up to WALLET_POLL_MAX, and its polls write nothing to history', async () => {
    const { walletWorkflowId } = await stack.wallets.open({ name: `quiet-${Date.now()}` });
    const wallet = follow(walletWorkflowId);
    const [watch] = await eventually(async () => {
      const found = watches(await wallet.events());
      assert.equal(found.length, 1);
      return found;
    }, 60_000);
    // The first poll after the interval (a timer, not a poll at once), the next ones twice as far apart each time.
    assert.equal(
      timers(await wallet.events())
        .filter((t) => t.at < watch!.at)
        .at(-1)?.ms,
      INTERVAL,
    );
    assert.deepEqual(
      { initial: watch?.initial, max: watch?.max, backoff: watch?.backoff },
      { initial: 2 * INTERVAL, max: CEILING, backoff: 2 },
    );
    const early = await eventually(async () => {
      const progress = await wallet.progress();
      assert.ok(progress.attempt >= 3, JSON.stringify(progress));
      return progress;
    });
    // 1,600 ms apart at most from now on: three more polls, and not one more event. The deadline
    // allows one attempt lost to its start-to-close timeout (a minute): under load, CI26 saw a
    // minute with one attempt in it (the watch's state now goes into the message).
    const later = await eventually(async () => {
      const progress = await wallet.progress();
      assert.ok(progress.attempt >= early.attempt + 3, JSON.stringify({ early, now: progress }));
      return progress;
    }, 120_000);
    assert.equal(later.historyLength, early.historyLength);
    assert.equal(
      (await wallet.handle.query(walletQuery)).stats.polls,
      0,
      'no poll completed: nothing was found, and a wallet just opened is not polled at once',
    );
  });

  it('a deposit whose callback was lost is found by the next poll and counted once; the polls start over from the interval', async () => {
    const { walletId, walletWorkflowId } = await stack.wallets.open({ name: `lost-${Date.now()}` });
    const wallet = follow(walletWorkflowId);
    await eventually(async () => assert.ok((await wallet.progress()).attempt >= 3, 'three polls'), 60_000);
    await stack.op('PUT', '/sandbox/knobs/callbacks', { drop: 1 });
    await stack.op('POST', `/sandbox/wallets/${walletId}/deposits`, { currency: 'BTC', amount: 0.75, confirmed: true });
    const state = await eventually(async () => {
      const queried = await wallet.handle.query(walletQuery);
      assert.deepEqual(queried.balances.BTC, { confirmed: '0.75', pending: '0' });
      return queried;
    }, 60_000);
    assert.equal(state.stats.recoveredByPoll, 1);
    assert.equal(state.stats.callbacks, 0);
    // The watch that found it ends; the next one starts over from the interval, not from where the
    // first had backed off to (800 ms and more by then).
    const events = await eventually(async () => {
      const events = await wallet.events();
      assert.equal(watches(events).length, 2, 'a second watch');
      return events;
    }, 60_000);
    const second = watches(events)[1]!;
    assert.equal(
      timers(events)
        .filter((t) => t.at < second.at)
        .at(-1)?.ms,
      INTERVAL,
      'the next watch starts from the interval',
    );
  });

  it('a callback starts a watch that has backed off over from the interval, and its deposit counts once', async () => {
    const { walletId, walletWorkflowId } = await stack.wallets.open({ name: `woken-${Date.now()}` });
    const wallet = follow(walletWorkflowId);
    await eventually(async () => assert.ok((await wallet.progress()).attempt >= 4, 'four polls'), 60_000);
    await stack.op('POST', `/sandbox/wallets/${walletId}/deposits`, { currency: 'BTC', amount: 0.25, confirmed: true });
    await eventually(async () =>
      assert.deepEqual((await wallet.handle.query(walletQuery)).balances.BTC, { confirmed: '0.25', pending: '0' }),
    );
    const events = await wallet.events();
    assert.ok(
      events.some((e) => e.activityTaskCancelRequestedEventAttributes),
      'the backed-off watch was cancelled',
    );
    const signalled = events.findIndex((e) => e.workflowExecutionSignaledEventAttributes);
    assert.equal(timers(events).find((t) => t.at > signalled)?.ms, INTERVAL, 'the new watch starts from the interval');
    // The new watch finds the deposit counted already: it keeps polling, and nothing is counted twice.
    await eventually(async () => assert.ok((await wallet.progress()).attempt >= 3, 'three polls'), 60_000);
    assertFields(await wallet.handle.query(walletQuery), {
      stats: { callbacks: 1, recoveredByPoll: 0 },
      balances: { BTC: { confirmed: '0.25' } },
    });
  });

  it("callbacks in the watch's first wait leave its timer running: one interval after the opening, the poll takes the wallet as it is then", async () => {
    // A longer interval than the stack's, so that both callbacks come within the first wait: with
    // 6 s, a loaded CI (CI25) confirmed the deposit after the wait had ended, and the poll then
    // found it pending and waited the interval again.
    const timing = { pollIntervalMs: 15_000, pollMaxMs: 240_000 };
    const wallets = new WalletsClient(stack.client, { taskQueue: stack.taskQueue, ...timing });
    const { walletId, walletWorkflowId } = await wallets.open({ name: `first-wait-${Date.now()}` });
    const wallet = follow(walletWorkflowId);
    const deposit = await stack.op<{ transaction: { id: string } }>('POST', `/sandbox/wallets/${walletId}/deposits`, {
      currency: 'BTC',
      amount: 0.5,
    });
    await eventually(async () =>
      assert.deepEqual((await wallet.handle.query(walletQuery)).balances.BTC, { confirmed: '0', pending: '0.5' }),
    );
    await stack.op('POST', `/sandbox/transactions/${deposit.transaction.id}/confirm`);
    await eventually(async () =>
      assert.deepEqual((await wallet.handle.query(walletQuery)).balances.BTC, { confirmed: '0.5', pending: '0' }),
    );
    const events = await eventually(async () => {
      const events = await wallet.events();
      assert.equal(watches(events).length, 1, 'the watch polls');
      return events;
    }, 60_000);
    assert.equal(events.filter((e) => e.timerCanceledEventAttributes).length, 0, 'no timer cancelled by a callback');
    assert.deepEqual(
      timers(events)
        .filter((t) => t.ms === timing.pollIntervalMs)
        .map((t) => t.ms),
      [timing.pollIntervalMs],
      "one first wait: the watch's, started at the opening",
    );
    // Nothing is pending when the wait ends: the polls back off up to the ceiling, not the pending one.
    assert.deepEqual(
      { initial: watches(events)[0]?.initial, max: watches(events)[0]?.max },
      { initial: 2 * timing.pollIntervalMs, max: timing.pollMaxMs },
    );
    assertFields(await wallet.handle.query(walletQuery), { stats: { callbacks: 2, recoveredByPoll: 0 } });
    await wallet.handle.terminate('test done');
  });

  it('a poll that fails (the provider down) leaves the wallet running: its callback still counts', async () => {
    const { id: walletId } = await stack.provider.call(createWallet, { body: { name: `down-${Date.now()}` } });
    await stack.op('PUT', '/sandbox/knobs/faults', {
      route: 'GET /v2/wallet/:walletId/transactions',
      error: 'server',
      failNext: 10,
    });
    try {
      // A callback starts the follower, which polls at once: every attempt of that poll fails.
      const body = JSON.stringify({
        id: `TR_DOWN${Date.now()}`,
        createdAt: Date.now(),
        source: 'bitcoin:EXTERNAL',
        dest: walletSrn(walletId),
        currency: 'BTC',
        amount: 0.2,
        status: 'CONFIRMED',
        metadata: {},
        tags: [],
      });
      const res = await request(`${stack.ingressUrl}/callbacks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-signature': callbackSignature(stack.secretKey, body) },
        body,
      });
      await res.body.dump();
      assert.equal(res.statusCode, 200);
      const handle = stack.client.workflow.getHandle(walletWorkflowId(walletId));
      await eventually(
        async () => assert.equal((await handle.query(walletQuery)).stats.polls, 1, 'the poll was made'),
        60_000,
      );
      assert.equal((await handle.describe()).status.name, 'RUNNING');
      assert.deepEqual(
        (await handle.query(walletQuery)).balances.BTC,
        { confirmed: '0.2', pending: '0' },
        JSON.stringify(await handle.query(walletQuery)),
      );
      await handle.terminate('test done');
    } finally {
      await stack.op('DELETE', '/sandbox/knobs/faults');
    }
  });
});
