import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Client } from '@temporalio/client';
import { newId } from '../../src/sandbox/ids.js';
import { balances, emptyLedger, record } from '../../workflows/wallet/ledger.js';
import { walletQuery, walletWorkflowId } from '../../workflows/wallet/messages.js';
import { startStack, type Stack } from '../helpers/stack.js';

describe('payloads are encrypted before Temporal stores them', () => {
  let stack: Stack;
  before(async () => (stack = await startStack()));
  after(async () => stack?.stop());

  it("a wallet's history holds only ciphertext; the product's own clients read it as usual", async () => {
    const name = `encrypted-name-${randomUUID()}`;
    const wallet = await stack.wallets.open({ name });
    // A client without the key sees what the server stores.
    const raw = new Client({ connection: stack.client.connection });
    // The follower's history: there the name is only in payloads (the opener's id carries it as its business key).
    const history = await raw.workflow.getHandle(wallet.walletWorkflowId).fetchHistory();
    // Workflow ids are business keys and stay readable (the parent's id names the wallet): beyond them, nothing.
    const json = JSON.stringify(history).replaceAll(`open-wallet:${name}`, '');
    const encodings = new Set<string>();
    for (const e of history.events ?? []) {
      const payloads = [
        ...(e.workflowExecutionStartedEventAttributes?.input?.payloads ?? []),
        ...(e.activityTaskScheduledEventAttributes?.input?.payloads ?? []),
        ...(e.activityTaskCompletedEventAttributes?.result?.payloads ?? []),
      ];
      for (const p of payloads) encodings.add(Buffer.from(p.metadata!.encoding!).toString());
    }
    assert.deepEqual([...encodings], ['binary/encrypted']);
    assert.equal(json.includes(name), false, 'the name is nowhere in the stored history');
    assert.equal(json.includes(Buffer.from(name).toString('base64').slice(0, 20)), false, 'not even base64-encoded');
    assert.equal((await stack.client.workflow.getHandle(wallet.walletWorkflowId).query(walletQuery)).name, name);
  });

  it("a wallet's carried ledger is stored compressed, and its next run reads it whole", async () => {
    // What a wallet carries across continue-as-new, 200 recent entries and 1,000 settled records, as
    // its next run starts with it (the worker encodes continue-as-new's input with the same codec).
    const walletId = newId('WA');
    const ledger = emptyLedger(walletId);
    const now = Date.now();
    for (let i = 0; i < 1_200; i++) {
      const createdAt = now - (1_200 - i) * 60_000;
      record(
        ledger,
        {
          id: newId('TR'),
          createdAt,
          source: `bitcoin:${randomUUID()}`,
          dest: `wallet:${walletId}`,
          currency: 'BTC',
          amount: `0.${String(i + 1).padStart(8, '0')}`,
          status: 'CONFIRMED',
          confirmedAt: createdAt + 600_000,
        },
        'callback',
        { now },
      );
    }
    const json = Buffer.byteLength(JSON.stringify(ledger));
    const handle = await stack.client.workflow.start('walletWorkflow', {
      workflowId: walletWorkflowId(walletId),
      taskQueue: stack.taskQueue,
      args: [{ walletId, pollIntervalMs: 3_600_000, carried: ledger }],
    });
    try {
      const view = await handle.query(walletQuery);
      // 1 + 2 + … + 1,200 satoshi: every record and entry came through.
      assert.deepEqual(view.balances, { ...balances(ledger) });
      assert.equal(view.balances.BTC?.confirmed, '0.007206');
      const raw = new Client({ connection: stack.client.connection });
      const started = (await raw.workflow.getHandle(handle.workflowId).fetchHistory()).events![0]!;
      const [input] = started.workflowExecutionStartedEventAttributes!.input!.payloads!;
      assert.equal(Buffer.from(input!.metadata!.compression!).toString(), 'deflate-raw');
      assert.ok(input!.data!.length * 3 < json, `stored ${input!.data!.length} bytes for ${json} bytes of JSON`);
    } finally {
      await handle.terminate('test done');
    }
  });
});
