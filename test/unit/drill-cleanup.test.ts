import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Client, WorkflowNotFoundError } from '@temporalio/client';
import { terminateRuns } from '../../scripts/lib/drill/cleanup.js';

// The drill's cleanup against a Temporal that refuses a writer's terminate: the refusal is answered,
// a run that already ended is not.

function clientRefusing(refused: Set<string>, ended: Set<string>) {
  const terminated: string[] = [];
  const client = {
    workflow: {
      getHandle: (id: string) => ({
        terminate: async () => {
          if (ended.has(id)) throw new WorkflowNotFoundError('workflow not found', id, undefined);
          if (refused.has(id)) throw new Error('PERMISSION_DENIED: Request unauthorized.');
          terminated.push(id);
        },
      }),
    },
  } as unknown as Client;
  return { client, terminated };
}

describe('the drill’s cleanup', () => {
  it('answers each run whose terminate was refused, and not the ones that had ended', async () => {
    const { client, terminated } = clientRefusing(new Set(['open-wallet:d-1']), new Set(['kyc:AC_1']));
    const refused = await terminateRuns(client, ['open-wallet:d-1', 'kyc:AC_1', 'open-wallet:d-2'], 'drill ended');
    assert.deepEqual(refused, [{ workflowId: 'open-wallet:d-1', message: 'PERMISSION_DENIED: Request unauthorized.' }]);
    assert.deepEqual(terminated, ['open-wallet:d-2']);
  });

  it('answers nothing when every run was terminated or had ended', async () => {
    const { client } = clientRefusing(new Set(), new Set(['kyc:AC_1']));
    assert.deepEqual(await terminateRuns(client, ['open-wallet:d-1', 'kyc:AC_1'], 'drill ended'), []);
  });
});
