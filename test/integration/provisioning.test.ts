import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { WorkflowNotFoundError } from '@temporalio/client';
import { InputRejectedError } from '../../workflows/lib/client-errors.js';
import { ProvisioningClient } from '../../workflows/provisioning/client.js';
import { ProviderClient } from '../../src/provider/client.js';
import { generateClientSecret } from '../../src/provider/client-token.js';
import { readAccount } from '../../src/provider/endpoints.js';
import { eventually, startStack, type Stack } from '../helpers/stack.js';
import { kill, spawnWorker } from '../helpers/worker-process.js';
import { resultWithin } from '../helpers/result.js';
import { provisioningWorkflowId } from '../../workflows/provisioning/messages.js';

describe('account provisioning for client-held tokens (docs/provider-contract.md §5.3)', () => {
  let stack: Stack;
  let provisioning: ProvisioningClient;
  before(async () => {
    stack = await startStack();
    provisioning = new ProvisioningClient(stack.client, { taskQueue: stack.taskQueue, claims: stack.claims });
  });
  after(async () => stack?.stop());

  const boundAccounts = (secret: string) =>
    stack.sandbox.ctx.store.state.credentials.filter((c) => c.secretKey === secret && c.accountId !== null);

  it("registers the secret and creates the token's account; the secret then signs with the returned key", async () => {
    const secret = generateClientSecret();
    const clientRef = `device-${randomUUID()}`;
    await provisioning.start({ clientRef, country: 'DE', secret });
    const result = await resultWithin(provisioning.result(clientRef), provisioningWorkflowId(clientRef));
    assert.equal(result.outcome, 'CREATED');
    assert.match(result.accountId ?? '', /^AC_/);
    const signed = new ProviderClient({
      baseUrl: stack.sandboxUrl,
      auth: { kind: 'signature', apiKey: result.apiKey, secretKey: secret },
    });
    assert.equal((await signed.call(readAccount, { params: { accountId: result.accountId! } })).country, 'DE');
    await signed.close();
    // Starting the same clientRef again attaches to the finished process: no second account.
    await provisioning.start({ clientRef, country: 'DE', secret });
    assert.deepEqual(await resultWithin(provisioning.result(clientRef), provisioningWorkflowId(clientRef)), result);
    assert.equal(boundAccounts(secret).length, 1);
    // The secret never entered the workflow's history.
    const history = JSON.stringify(await stack.client.workflow.getHandle(`provision:${clientRef}`).fetchHistory());
    assert.equal(history.includes(secret), false);
  });

  it('a second account creation with the same token is the error of docs/provider-contract.md §7.1: ALREADY_BOUND', async () => {
    const secret = generateClientSecret();
    const firstRef = `first-${randomUUID()}`;
    await provisioning.start({ clientRef: firstRef, country: 'US', secret });
    assert.equal(
      (await resultWithin(provisioning.result(firstRef), provisioningWorkflowId(firstRef))).outcome,
      'CREATED',
    );
    const accounts = Object.keys(stack.sandbox.ctx.store.state.accounts).length;
    // Another process (another clientRef) with the same token tries to create a second account.
    const secondRef = `second-${randomUUID()}`;
    await provisioning.start({ clientRef: secondRef, country: 'US', secret });
    const second = await resultWithin(provisioning.result(secondRef), provisioningWorkflowId(secondRef));
    assert.equal(second.outcome, 'ALREADY_BOUND');
    assert.equal(second.accountId, null);
    assert.match(second.error ?? '', /already bound/);
    assert.equal(Object.keys(stack.sandbox.ctx.store.state.accounts).length, accounts, 'no account was created');
    assert.equal((await provisioning.state(secondRef)).stage, 'DONE');
  });

  it('refuses bad input before starting anything', async () => {
    const clientRef = `bad-${randomUUID()}`;
    await assert.rejects(
      provisioning.start({ clientRef, country: 'DE', secret: 'short' }),
      (e: unknown) => e instanceof InputRejectedError && e.field === 'secret',
    );
    await assert.rejects(
      provisioning.start({ clientRef, country: 'Germany', secret: generateClientSecret() }),
      (e: unknown) => e instanceof InputRejectedError && e.field === 'country',
    );
    await assert.rejects(
      provisioning.start({ clientRef: 'has spaces', country: 'DE', secret: generateClientSecret() }),
      (e: unknown) => e instanceof InputRejectedError && e.field === 'clientRef',
    );
    await assert.rejects(stack.client.workflow.getHandle(`provision:${clientRef}`).describe(), WorkflowNotFoundError);
  });

  it('a worker killed while creating the account: the process finishes and the provider counts one creation', async () => {
    const taskQueue = `kill-${randomUUID()}`;
    const env = { ...stack.workerEnv, TEMPORAL_TASK_QUEUE: taskQueue };
    const crashing = new ProvisioningClient(stack.client, {
      taskQueue,
      claims: stack.claims,
      activityTimeoutMs: 5_000,
    });
    const secret = generateClientSecret();
    const clientRef = `crash-${randomUUID()}`;
    // The provider holds the creation for a while, so that the worker dies with the call in flight.
    await stack.op('PUT', '/sandbox/knobs/faults', { route: 'POST /v3/accounts', latencyMs: 2_500 });
    let worker = await spawnWorker(env);
    try {
      const id = await crashing.start({ clientRef, country: 'FR', secret });
      await eventually(
        async () => {
          const pending = (await stack.client.workflow.getHandle(id).describe()).raw.pendingActivities ?? [];
          assert.ok(
            pending.some((a) => a.activityType?.name === 'createAccountWithToken' && Number(a.attempt) === 1),
            'the creation is in flight',
          );
        },
        30_000,
        50,
      );
      await kill(worker);
      await stack.op('DELETE', '/sandbox/knobs/faults');
      worker = await spawnWorker(env);
      const result = await resultWithin(crashing.result(clientRef), provisioningWorkflowId(clientRef));
      assert.equal(result.outcome, 'CREATED', `the retried creation found the first account: ${result.error}`);
      assert.equal(boundAccounts(secret).length, 1);
      assert.equal(boundAccounts(secret)[0]!.accountId, result.accountId);
      const attempts = (await stack.client.workflow.getHandle(id).fetchHistory()).events
        ?.filter((e) => e.activityTaskStartedEventAttributes)
        .map((e) => e.activityTaskStartedEventAttributes!.attempt);
      assert.ok(
        attempts?.some((a) => Number(a) > 1),
        'the creation ran again after the crash',
      );
    } finally {
      await kill(worker);
      await stack.op('DELETE', '/sandbox/knobs/faults');
    }
  });
});
