import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Client, WorkflowNotFoundError } from '@temporalio/client';
import { signalWallet } from '../../workflows/wallet/follower-client.js';
import { walletWorkflowId } from '../../workflows/wallet/messages.js';
import { depositInto } from '../helpers/observation.js';

// The follower's last run can be deleted by retention between describe() and result(): then it
// left nothing, and a new follower starts empty, rather than the callback failing on every retry.

const WALLET_ID = 'WA_RACE';
const notFound = (runId?: string) =>
  new WorkflowNotFoundError('workflow not found', walletWorkflowId(WALLET_ID), runId);

/** A client whose follower has closed, whose last run describes as COMPLETED but is gone when its result is asked. */
function fakeClient() {
  const started: unknown[] = [];
  const client = {
    workflow: {
      getHandle: (_id: string, runId?: string) => ({
        signal: () => Promise.reject(notFound()),
        describe: () => Promise.resolve({ runId: 'run-1', status: { name: 'COMPLETED' } }),
        result: () => Promise.reject(notFound(runId)),
      }),
      // No opening workflow follows the wallet either.
      list: async function* () {},
      signalWithStart: (_type: string, options: { args: unknown[] }) => {
        started.push(options.args[0]);
        return Promise.resolve({});
      },
    },
  } as unknown as Client;
  return { client, started };
}

describe('signalWallet when the last run is deleted meanwhile', () => {
  it('starts a new follower with nothing carried', async () => {
    const { client, started } = fakeClient();
    const input = { walletId: WALLET_ID } as Parameters<typeof signalWallet>[1]['input'];
    await signalWallet(client, { taskQueue: 'q', input, tx: depositInto(WALLET_ID)('TR_1', 1_800_000_000_000) });
    assert.deepEqual(started, [{ walletId: WALLET_ID }]);
  });
});
