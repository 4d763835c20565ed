import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Client } from '@temporalio/client';
import { walletQuery } from '../../workflows/wallet/messages.js';
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
});
