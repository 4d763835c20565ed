import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { POLL_LOOKBACK_MS } from '../../src/provider/transaction-observation.js';
import { emptyLedger } from '../../workflows/wallet/ledger.js';
import { walletQuery } from '../../workflows/wallet/messages.js';
import { eventually, startStack, type Stack } from '../helpers/stack.js';

// A quiet wallet's polls write nothing to its history, also when the provider lists a transaction
// that ended other than confirmed long ago: one the ledger keeps only as a settled record, or one
// older than its horizon that it never knew. Before, each poll returned it as changed: the watch
// completed and the wallet wrote history at every poll.

const INTERVAL = 200;
const CEILING = 1_600;
const DAY = 86_400_000;

describe('wallet: an old transaction that ended unconfirmed is not news', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ pollIntervalMs: INTERVAL, pollMaxMs: CEILING });
  });
  after(async () => stack?.stop());

  /** A wallet whose provider lists one FAILED deposit, followed by a run that carries `ledger`. */
  async function walletWithFailedDeposit(
    name: string,
    ageMs: number,
    ledgerFor: (walletId: string, txId: string, createdAt: number) => object,
  ) {
    const { walletId, walletWorkflowId: workflowId } = await stack.wallets.open({ name: `${name}-${Date.now()}` });
    await stack.client.workflow.getHandle(workflowId).terminate('restarted with a carried ledger');
    await stack.op('PUT', '/sandbox/knobs/callbacks', { drop: 1 });
    const { transaction } = await stack.op<{ transaction: { id: string; createdAt: number } }>(
      'POST',
      `/sandbox/wallets/${walletId}/deposits`,
      { currency: 'BTC', amount: 0.5 },
    );
    // It was created `ageMs` ago and failed at the provider (the sandbox has no route for either).
    const stored = stack.sandbox.ctx.store.state.transactions[transaction.id]!;
    stored.status = 'FAILED';
    stored.createdAt -= ageMs;
    const handle = await stack.client.workflow.start('walletWorkflow', {
      workflowId,
      taskQueue: stack.taskQueue,
      args: [
        {
          walletId,
          pollIntervalMs: INTERVAL,
          pollMaxMs: CEILING,
          carried: ledgerFor(walletId, transaction.id, stored.createdAt),
          // As a previous run left it: the deposit was on its last page.
          pollCursor: { since: stored.createdAt - POLL_LOOKBACK_MS, seen: [transaction.id] },
          quietPolls: 0,
        },
      ],
    });
    return handle;
  }

  /** Three polls of the watch, and whether the history moved meanwhile. */
  async function threePolls(handle: Awaited<ReturnType<typeof walletWithFailedDeposit>>) {
    const progress = async () => {
      const raw = (await handle.describe()).raw;
      return {
        attempt: raw.pendingActivities?.[0]?.attempt ?? 0,
        historyLength: Number(raw.workflowExecutionInfo?.historyLength ?? 0),
      };
    };
    // The watch is under way: its first attempt is pending.
    const start = await eventually(async () => {
      const at = await progress();
      assert.ok(at.attempt >= 1, JSON.stringify(at));
      return at;
    }, 30_000);
    const polls = (await handle.query(walletQuery)).stats.polls;
    // Until three more attempts, or until the history moves (a poll that completed the watch).
    const end = await eventually(async () => {
      const at = await progress();
      assert.ok(at.attempt >= start.attempt + 3 || at.historyLength !== start.historyLength, JSON.stringify(at));
      return at;
    }, 30_000);
    return { start, end, pollsAnswered: (await handle.query(walletQuery)).stats.polls - polls };
  }

  it('a FAILED deposit the ledger keeps as a settled record: three polls write no history', async () => {
    const handle = await walletWithFailedDeposit('failed-record', 100 * DAY, (walletId, txId, createdAt) => ({
      ...emptyLedger(walletId),
      // It left the recent entries (200 newer ones came and settled since, not carried here).
      settled: { [txId]: ['BTC', '0.5', 'FAILED', createdAt] },
    }));
    const { start, end, pollsAnswered } = await threePolls(handle);
    assert.equal(end.historyLength, start.historyLength, 'the polls wrote to history');
    assert.equal(pollsAnswered, 0, 'no poll completed the watch');
    await handle.terminate('done');
  });

  it('a FAILED deposit older than the horizon, which the ledger never knew: three polls write no history', async () => {
    const handle = await walletWithFailedDeposit('failed-expired', 200 * DAY, (walletId, _txId, createdAt) => ({
      ...emptyLedger(walletId),
      // Newer transactions moved the horizon past it, and the ledger forgot it.
      horizon: createdAt + DAY,
    }));
    const { start, end, pollsAnswered } = await threePolls(handle);
    assert.equal(end.historyLength, start.historyLength, 'the polls wrote to history');
    assert.equal(pollsAnswered, 0, 'no poll completed the watch');
    await handle.terminate('done');
  });
});
