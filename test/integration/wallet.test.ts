import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { WithStartWorkflowOperation, WorkflowNotFoundError } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import { request } from 'undici';
import { INTEREST_PAYMENTS_SRN, walletSrn } from '../../src/provider/srn.js';
import { BalanceDrift } from '../../src/temporal/search-attributes.js';
import { callbackSignature } from '../../src/provider/signing.js';
import type { Transaction } from '../../src/provider/schemas/transaction.js';
import { LEDGER_V2_PATCH } from '../../workflows/patches.js';
import {
  type OpenWalletWorkflow,
  openedUpdate,
  openWalletWorkflowId,
  walletQuery,
  walletWorkflowId,
} from '../../workflows/wallet/messages.js';
import { assertFields } from '../helpers/assert.js';
import { openAsBefore } from '../helpers/wallet-opened-before.js';
import { eventually, startStack, type Stack } from '../helpers/stack.js';

type Delivery = { outcomes: Array<number | string> };
type OperatorTx = { transaction: Transaction; delivery?: Delivery };

describe('wallet: from creation to confirmed deposit', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack();
  });
  after(async () => stack?.stop());

  /**
   * A callback made by hand, sent where the provider sends it: to the URL the wallet was created
   * with, which names its workflow. Sent by id instead, a callback that comes before visibility shows
   * a wallet opened moments ago (seconds, on a loaded cluster) starts a second follower (docs/ingress.md).
   */
  const callBack = async (walletId: string, transaction: Transaction) => {
    const url = stack.sandbox.ctx.store.state.wallets[walletId]!.callbackUrl!;
    const body = JSON.stringify(transaction);
    const res = await request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-signature': callbackSignature(stack.secretKey, body) },
      body,
    });
    await res.body.dump();
    return res.statusCode;
  };

  it('creates the wallet with callbacks to its own workflow by name and counts a deposit pending, then confirmed', async () => {
    const name = `alice ${Date.now()}/&?`;
    const opened = await stack.wallets.open({ name });
    assert.match(opened.walletId, /^WA_/);
    assert.ok(opened.depositAddresses.BTC, 'the wallet has a BTC deposit address');
    // One workflow opens and follows the wallet: no follower of its own is started.
    assert.equal(opened.walletWorkflowId, `open-wallet:${name}`);
    await assert.rejects(
      stack.client.workflow.getHandle(walletWorkflowId(opened.walletId)).describe(),
      WorkflowNotFoundError,
      'no second workflow follows the wallet',
    );
    const stored = stack.sandbox.ctx.store.state.wallets[opened.walletId]!;
    assert.equal(stored.callbackUrl, `${stack.ingressUrl}/callbacks?wallet=${encodeURIComponent(name)}`);

    const pending = await stack.operator<OperatorTx>('POST', `/sandbox/wallets/${opened.walletId}/deposits`, {
      currency: 'BTC',
      amount: 0.5,
    });
    assert.deepEqual(pending.json.delivery?.outcomes, [200], 'the ingress accepted the pending callback');
    await eventually(async () => {
      const state = await stack.wallets.state(opened.walletId);
      assert.deepEqual(state.balances.BTC, { confirmed: '0', pending: '0.5' });
    });

    const confirmed = await stack.operator<OperatorTx>(
      'POST',
      `/sandbox/transactions/${pending.json.transaction.id}/confirm`,
    );
    assert.deepEqual(confirmed.json.delivery?.outcomes, [200]);
    const state = await eventually(async () => {
      const queried = await stack.wallets.state(opened.walletId);
      assert.deepEqual(queried.balances.BTC, { confirmed: '0.5', pending: '0' });
      return queried;
    });
    assert.equal(state.recentTransactions.length, 1, 'one transaction, seen twice');
    assert.equal(state.recentTransactions[0]!.status, 'CONFIRMED');
    assert.equal(state.stats.callbacks, 2);
  });

  it('opening the same name again returns the same wallet instead of creating a second one', async () => {
    const name = `bob-${Date.now()}`;
    const first = await stack.wallets.open({ name });
    const second = await stack.wallets.open({ name });
    assert.equal(second.walletId, first.walletId);
    const named = Object.values(stack.sandbox.ctx.store.state.wallets).filter((w) => w.name === name);
    assert.equal(named.length, 1);
  });

  it('a name opened before one workflow per wallet opens as it was: the same wallet, its follower, its deposits', async () => {
    const name = `before-${Date.now()}`;
    const before = await openAsBefore(stack, name);
    assert.equal(before.walletWorkflowId, walletWorkflowId(before.walletId));
    const again = await stack.wallets.open({ name });
    assert.deepEqual(again, before);
    await stack.operator('POST', `/sandbox/wallets/${before.walletId}/deposits`, {
      currency: 'BTC',
      amount: 0.25,
      confirmed: true,
    });
    await eventually(async () =>
      assert.deepEqual((await stack.wallets.state(before.walletId)).balances.BTC, { confirmed: '0.25', pending: '0' }),
    );
    await stack.client.workflow.getHandle(before.walletWorkflowId).terminate('test done');
  });

  it('counts a repeated callback once', async () => {
    const { walletId } = await stack.wallets.open({ name: `carol-${Date.now()}` });
    await stack.operator('PUT', '/sandbox/knobs/callbacks', { repeat: 2 });
    try {
      const res = await stack.operator<OperatorTx>('POST', `/sandbox/wallets/${walletId}/deposits`, {
        currency: 'ETH',
        amount: 1.25,
        confirmed: true,
      });
      assert.deepEqual(res.json.delivery?.outcomes, [200, 200, 200], 'the same callback was delivered three times');
    } finally {
      await stack.operator('PUT', '/sandbox/knobs/callbacks', { repeat: 0 });
    }
    const state = await eventually(async () => {
      const queried = await stack.wallets.state(walletId);
      assert.equal(queried.stats.callbacks, 3);
      return queried;
    });
    assert.deepEqual(state.balances.ETH, { confirmed: '1.25', pending: '0' });
    assert.equal(state.recentTransactions.length, 1);
    // The new wallet's first poll may have seen the deposit before its callbacks did.
    assert.equal(state.stats.duplicates, state.recentTransactions[0]!.firstSeenVia === 'callback' ? 2 : 3);
  });

  it('counts a confirmation that arrives before its pending notice once, as confirmed', async () => {
    const { walletId } = await stack.wallets.open({ name: `dave-${Date.now()}` });
    const tx: Transaction = {
      id: 'TR_OUTOFORDER1',
      createdAt: 1_700_000_000_000,
      source: 'bitcoin:EXTERNAL',
      dest: walletSrn(walletId),
      currency: 'BTC',
      amount: '0.2',
      status: 'CONFIRMED',
      confirmedAt: 1_700_000_060_000,
      metadata: {},
      tags: [],
    };
    assert.equal(await callBack(walletId, tx), 200);
    assert.equal(await callBack(walletId, { ...tx, status: 'PENDING', confirmedAt: null }), 200);
    const state = await eventually(async () => {
      const queried = await stack.wallets.state(walletId);
      assert.equal(queried.stats.callbacks, 2);
      return queried;
    });
    assert.deepEqual(state.balances.BTC, { confirmed: '0.2', pending: '0' });
    assert.equal(state.stats.stale, 1, 'the late pending notice was recognised as stale');
    assert.equal(state.recentTransactions[0]!.status, 'CONFIRMED');
  });

  it('recognises an interest payout through the transfer it comes from', async () => {
    const { walletId } = await stack.wallets.open({ name: `erin-${Date.now()}`, type: 'SAVINGS' });
    const res = await stack.operator<OperatorTx & { transfer: { id: string; source: string } }>(
      'POST',
      `/sandbox/wallets/${walletId}/interest-payouts`,
      { currency: 'USD', amount: 3.21 },
    );
    assert.equal(res.json.transfer.source, INTEREST_PAYMENTS_SRN);
    assert.equal(res.json.transaction.source, `transfer:${res.json.transfer.id}`);
    const state = await eventually(async () => {
      const queried = await stack.wallets.state(walletId);
      assert.equal(queried.recentTransactions[0]?.kind, 'interest');
      return queried;
    });
    assert.equal(state.recentTransactions[0]!.transferId, res.json.transfer.id);
    assert.deepEqual(state.balances.USD, { confirmed: '3.21', pending: '0' });
  });

  it('a deposit whose transfer is not interest stays a plain transfer', async () => {
    const { walletId } = await stack.wallets.open({ name: `frank-${Date.now()}` });
    const payout = await stack.operator<OperatorTx & { transfer: { id: string } }>(
      'POST',
      `/sandbox/wallets/${walletId}/interest-payouts`,
      { currency: 'USD', amount: 1 },
    );
    // Make the same transfer look like it came from elsewhere, then replay its callback.
    stack.sandbox.ctx.store.state.transfers[payout.json.transfer.id]!.source = 'account:AC_SOMEONEELSE';
    const { walletId: other } = await stack.wallets.open({ name: `frank2-${Date.now()}` });
    const tx = { ...payout.json.transaction, id: 'TR_NOTINTEREST1', dest: walletSrn(other) };
    assert.equal(await callBack(other, tx), 200);
    await eventually(async () => {
      const state = await stack.wallets.state(other);
      assert.equal(state.recentTransactions[0]?.id, 'TR_NOTINTEREST1');
      assert.equal(state.recentTransactions[0]?.kind, 'transfer');
    });
  });
});

describe('wallet: a lost callback is recovered by polling', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ pollIntervalMs: 1_000 });
  });
  after(async () => stack?.stop());

  it('sees a deposit whose callback was dropped', async () => {
    const { walletId } = await stack.wallets.open({ name: `gina-${Date.now()}` });
    await stack.operator('PUT', '/sandbox/knobs/callbacks', { drop: 1 });
    const res = await stack.operator<OperatorTx>('POST', `/sandbox/wallets/${walletId}/deposits`, {
      currency: 'BTC',
      amount: 0.75,
      confirmed: true,
    });
    assert.deepEqual(res.json.delivery?.outcomes, ['dropped']);
    const state = await eventually(async () => {
      const queried = await stack.wallets.state(walletId);
      assert.deepEqual(queried.balances.BTC, { confirmed: '0.75', pending: '0' });
      return queried;
    });
    assert.equal(state.stats.callbacks, 0, 'no callback ever arrived');
    assert.equal(state.stats.recoveredByPoll, 1);
    assert.equal(state.recentTransactions[0]!.firstSeenVia, 'poll');
  });
});

describe('wallet: continue-as-new keeps the state', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack();
  });
  after(async () => stack?.stop());

  it('a wallet followed in its opening workflow continues as new as its follower, under the same id, and still answers its opening', async () => {
    const name = `rolled-open-${Date.now()}`;
    const opening = new WithStartWorkflowOperation<OpenWalletWorkflow>('openWalletWorkflow', {
      workflowId: openWalletWorkflowId(name),
      taskQueue: stack.taskQueue,
      args: [{ name, follower: 'this-workflow', pollIntervalMs: 3_600_000, maxHistoryEvents: 50 }],
      workflowIdConflictPolicy: 'USE_EXISTING',
    });
    const opened = await stack.client.workflow.executeUpdateWithStart(openedUpdate, {
      startWorkflowOperation: opening,
    });
    const handle = await opening.workflowHandle();
    const firstRun = (await handle.describe()).runId;
    const tx = (i: number): Transaction => ({
      id: `TR_OCAN${String(i).padStart(4, '0')}`,
      createdAt: Date.now(),
      source: 'ethereum:EXTERNAL',
      dest: walletSrn(opened.walletId),
      currency: 'ETH',
      amount: '1',
      status: 'CONFIRMED',
      metadata: {},
      tags: [],
    });
    for (let i = 0; i < 60; i++) await handle.signal('transaction', tx(i));
    const latest = stack.client.workflow.getHandle(opened.walletWorkflowId);
    const described = await eventually(async () => {
      const now = await latest.describe();
      assert.notEqual(now.runId, firstRun, 'a new run was started');
      return now;
    });
    assert.equal(described.type, 'walletWorkflow');
    assert.equal(described.workflowId, openWalletWorkflowId(name));
    // A later open of the name is answered by the run that follows now.
    assert.deepEqual(await stack.wallets.open({ name }), opened);
    await eventually(async () =>
      assert.deepEqual((await latest.query(walletQuery)).balances.ETH, { confirmed: '60', pending: '0' }),
    );
    // Each search-attribute write is a visibility write. Every run writes its one patch marker's
    // TemporalChangeVersion, and a second (wallet-ledger-v2's) as it continues as new; only the first
    // writes TRACKING with its wallet id, which the runs after it show carried. How many runs the 60
    // signals take depends on how the server batches them into tasks, so each run of the chain is read.
    const runs: { writes: string[]; continued: boolean }[] = [];
    for (let runId: string | undefined = firstRun; runId !== undefined;) {
      const history: temporal.api.history.v1.IHistory = await stack.client.workflow
        .getHandle(opened.walletWorkflowId, runId)
        .fetchHistory();
      const events = history.events ?? [];
      const next: string | undefined =
        events.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined;
      runs.push({
        writes: events
          .flatMap((e) =>
            Object.keys(e.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields ?? {}),
          )
          .sort(),
        continued: next !== undefined && next !== null,
      });
      runId = next ?? undefined;
    }
    assert.ok(runs.length >= 2, 'the wallet continued as new at least once');
    runs.forEach((run, i) => {
      const markers = run.continued ? ['TemporalChangeVersion', 'TemporalChangeVersion'] : ['TemporalChangeVersion'];
      const expected = i === 0 ? ['ProcessStatus', ...markers, 'WalletId'] : markers;
      assert.deepEqual(run.writes, expected, `run ${i + 1} of ${runs.length} (continued: ${run.continued})`);
    });
    const listed = await stack.client.workflow.count(
      `WalletId = '${opened.walletId}' AND ProcessStatus = 'TRACKING' AND ExecutionStatus = 'Running'`,
    );
    assert.equal(listed.count, 1, 'the running wallet is still listed by its wallet id and status');
    await latest.terminate('test done');
  });

  it('rolls over to a new run with balances and dedupe memory intact', async () => {
    const walletId = 'WA_CONTINUEASNEW';
    const handle = await stack.client.workflow.start('walletWorkflow', {
      workflowId: walletWorkflowId(walletId),
      taskQueue: stack.taskQueue,
      args: [{ walletId, pollIntervalMs: 3_600_000, maxHistoryEvents: 50 }],
    });
    const firstRun = handle.firstExecutionRunId;
    const tx = (i: number): Transaction => ({
      id: `TR_CAN${String(i).padStart(4, '0')}`,
      createdAt: 1_700_000_000_000 + i,
      source: 'ethereum:EXTERNAL',
      dest: walletSrn(walletId),
      currency: 'ETH',
      amount: '1',
      status: 'CONFIRMED',
      metadata: {},
      tags: [],
    });
    // More signals than maxHistoryEvents, so that the history passes it however the worker batches
    // them (40 taken in one or two activations stayed under 50 events, and the run never rolled over).
    const SENT = 60;
    for (let i = 0; i < SENT; i++) await handle.signal('transaction', tx(i));
    // Repeats of the first ones after the roll-over must still count once.
    const latest = stack.client.workflow.getHandle(walletWorkflowId(walletId));
    await eventually(async () => {
      const described = await latest.describe();
      assert.notEqual(described.runId, firstRun, 'a new run was started');
    });
    for (let i = 0; i < 5; i++) await latest.signal('transaction', tx(i));
    const state = await eventually(async () => {
      const queried = await latest.query(walletQuery);
      assert.equal(queried.stats.callbacks, SENT + 5);
      return queried;
    });
    assert.deepEqual(state.balances.ETH, { confirmed: String(SENT), pending: '0' });
    assert.equal(state.stats.duplicates, 5);
    // The first run carried the ledger's second shape behind its patch: the marker precedes the
    // continue-as-new, so a worker without the change cannot take the run up.
    const events =
      (await stack.client.workflow.getHandle(walletWorkflowId(walletId), firstRun).fetchHistory()).events ?? [];
    const patchId = (e: (typeof events)[number]) =>
      Buffer.from(e.markerRecordedEventAttributes?.details?.['patch-data']?.payloads?.[0]?.data ?? []).toString();
    const marker = events.findIndex(
      (e) => e.markerRecordedEventAttributes?.markerName === 'core_patch' && patchId(e).includes(LEDGER_V2_PATCH),
    );
    const canEvent = events.findIndex((e) => e.workflowExecutionContinuedAsNewEventAttributes);
    assert.ok(marker >= 0 && marker < canEvent, `patch marker at ${marker}, continue-as-new at ${canEvent}`);
    await latest.terminate('test done');
  });
});

describe('wallet: reconciliation with the provider’s balances', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack();
  });
  after(async () => stack?.stop());

  it('on request: no drift while they agree; a drift shown in the query and as BalanceDrift, never corrected', async () => {
    const { walletId, walletWorkflowId: workflowId } = await stack.wallets.open({ name: `reconciled-${Date.now()}` });
    const dep = await stack.operator<OperatorTx>('POST', `/sandbox/wallets/${walletId}/deposits`, {
      currency: 'BTC',
      amount: 0.5,
      confirmed: true,
    });
    assert.equal(dep.status, 200);
    await eventually(async () =>
      assert.deepEqual((await stack.wallets.state(walletId)).balances.BTC, { confirmed: '0.5', pending: '0' }),
    );
    assert.deepEqual((await stack.wallets.reconcile(walletId)).drift, []);

    // A correction at the provider that sends no callback: the balances part.
    const adjusted = await stack.operator('POST', `/sandbox/wallets/${walletId}/balance-adjustments`, {
      currency: 'BTC',
      amount: 0.1,
    });
    assert.equal(adjusted.status, 200);
    const found = await stack.wallets.reconcile(walletId);
    assert.deepEqual(found.drift, [{ currency: 'BTC', ledger: '0.5', provider: '0.6' }]);
    const state = await stack.wallets.state(walletId);
    assert.deepEqual(state.reconciliation?.drift, found.drift);
    assert.deepEqual(state.balances.BTC, { confirmed: '0.5', pending: '0' }, 'the ledger is not corrected');
    const handle = stack.client.workflow.getHandle(workflowId);
    await eventually(async () =>
      assert.deepEqual((await handle.describe()).typedSearchAttributes.get(BalanceDrift), true),
    );
    await handle.terminate('test done');
  });

  it('writes BalanceDrift only when it changes: never while the wallet agrees, true once apart, false once it agrees again', async () => {
    const { walletId, walletWorkflowId: workflowId } = await stack.wallets.open({ name: `drift-shown-${Date.now()}` });
    const handle = stack.client.workflow.getHandle(workflowId);
    // Each write is a history event (and a visibility row): the values written, in order.
    const written = async () =>
      ((await handle.fetchHistory()).events ?? []).flatMap((e) => {
        const field = e.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields?.BalanceDrift;
        return field ? [JSON.parse(Buffer.from(field.data!).toString()) as boolean] : [];
      });
    const listed = async (drift: boolean) => {
      const runs = [];
      for await (const run of stack.client.workflow.list({
        query: `WorkflowId = '${workflowId}' AND BalanceDrift = ${drift}`,
      }))
        runs.push(run.runId);
      return runs.length;
    };
    const adjust = (amount: string) =>
      stack.operator('POST', `/sandbox/wallets/${walletId}/balance-adjustments`, { currency: 'BTC', amount });

    assert.deepEqual((await stack.wallets.reconcile(walletId)).drift, []);
    assert.deepEqual((await stack.wallets.reconcile(walletId)).drift, []);
    assert.deepEqual(await written(), [], 'a wallet that never drifted never writes BalanceDrift');
    assert.equal((await handle.describe()).typedSearchAttributes.get(BalanceDrift), undefined);

    await adjust('0.1');
    assert.equal((await stack.wallets.reconcile(walletId)).drift.length, 1);
    assert.equal((await stack.wallets.reconcile(walletId)).drift.length, 1, 'still apart: the query shows it');
    assert.deepEqual(await written(), [true], 'written once for two reconciliations that found it apart');
    await eventually(async () => assert.equal(await listed(true), 1, 'listed by BalanceDrift = true'));

    await adjust('-0.1');
    assert.deepEqual((await stack.wallets.reconcile(walletId)).drift, []);
    assert.deepEqual(await written(), [true, false]);
    await eventually(async () => {
      assert.equal(await listed(true), 0, 'no longer listed by BalanceDrift = true');
      assert.equal(await listed(false), 1, 'listed by BalanceDrift = false');
    });
    await handle.terminate('test done');
  });

  it('a deposit whose callback was lost is no drift: where the balances disagree the wallet polls and compares again', async () => {
    const { walletId, walletWorkflowId: workflowId } = await stack.wallets.open({
      name: `reconciled-lost-${Date.now()}`,
    });
    await stack.op('PUT', '/sandbox/knobs/callbacks', { drop: 1 });
    await stack.op('POST', `/sandbox/wallets/${walletId}/deposits`, { currency: 'BTC', amount: 0.3, confirmed: true });
    assert.deepEqual((await stack.wallets.reconcile(walletId)).drift, []);
    assertFields(await stack.wallets.state(walletId), {
      balances: { BTC: { confirmed: '0.3' } },
      stats: { recoveredByPoll: 1 },
    });
    await stack.client.workflow.getHandle(workflowId).terminate('test done');
  });

  it('at the configured interval, without being asked', async () => {
    const { walletId, walletWorkflowId: workflowId } = await stack.wallets.open({
      name: `reconciled-timer-${Date.now()}`,
    });
    await stack.client.workflow.getHandle(workflowId).terminate('restarted with a short reconciliation interval');
    const handle = await stack.client.workflow.start('walletWorkflow', {
      workflowId,
      taskQueue: stack.taskQueue,
      args: [{ walletId, pollIntervalMs: 3_600_000, reconcileIntervalMs: 1_000 }],
    });
    await stack.operator('POST', `/sandbox/wallets/${walletId}/balance-adjustments`, { currency: 'USD', amount: 25 });
    await eventually(async () =>
      assert.deepEqual((await stack.wallets.state(walletId)).reconciliation?.drift, [
        { currency: 'USD', ledger: '0', provider: '25' },
      ]),
    );
    await handle.terminate('test done');
  });

  it('continue-as-new keeps the last comparison, and the next one comes when the interval since it is up', async () => {
    const { walletId, walletWorkflowId: workflowId } = await stack.wallets.open({
      name: `reconciled-rolled-${Date.now()}`,
    });
    const opened = stack.client.workflow.getHandle(workflowId);
    await opened.terminate('restarted with a short history limit');
    const interval = 3_600_000;
    const handle = await stack.client.workflow.start('walletWorkflow', {
      workflowId,
      taskQueue: stack.taskQueue,
      args: [{ walletId, pollIntervalMs: 3_600_000, reconcileIntervalMs: interval, maxHistoryEvents: 50 }],
    });
    await stack.op('POST', `/sandbox/wallets/${walletId}/balance-adjustments`, { currency: 'USD', amount: 5 });
    const found = await stack.wallets.reconcile(walletId);
    assert.deepEqual(found.drift, [{ currency: 'USD', ledger: '0', provider: '5' }]);
    // Enough callbacks to roll over to a new run.
    for (let i = 0; i < 30; i++)
      await handle.signal('transaction', {
        id: `TR_RR${i}`,
        createdAt: Date.now(),
        source: 'bitcoin:EXTERNAL',
        dest: walletSrn(walletId),
        currency: 'BTC',
        amount: 0.01,
        status: 'PENDING',
        metadata: {},
        tags: [],
      });
    const latest = stack.client.workflow.getHandle(workflowId);
    await eventually(async () => assert.notEqual((await latest.describe()).runId, handle.firstExecutionRunId));
    assert.deepEqual((await stack.wallets.state(walletId)).reconciliation, found);
    // What the run before showed carries on: the new run writes BalanceDrift only when it changes.
    assert.equal((await latest.describe()).typedSearchAttributes.get(BalanceDrift), true);
    // The new run's first task sets its timers: read them once it has.
    await eventually(async () => {
      const timers = ((await latest.fetchHistory()).events ?? []).flatMap((e) =>
        e.timerStartedEventAttributes
          ? [Number(e.timerStartedEventAttributes.startToFireTimeout?.seconds ?? 0) * 1000]
          : [],
      );
      assert.ok(
        timers.some((ms) => ms < interval),
        `the new run waits what is left of the interval: ${timers.join(', ')} ms`,
      );
    });
    await latest.terminate('test done');
  });

  it('refuses a bad adjustment at the sandbox and changes nothing', async () => {
    const { walletId, walletWorkflowId: workflowId } = await stack.wallets.open({ name: `adjust-bad-${Date.now()}` });
    const bad = await stack.operator('POST', `/sandbox/wallets/${walletId}/balance-adjustments`, {
      currency: '__proto__',
      amount: 1,
    });
    assert.equal(bad.status, 400);
    assert.deepEqual((await stack.wallets.reconcile(walletId)).drift, []);
    await stack.client.workflow.getHandle(workflowId).terminate('test done');
  });
});
