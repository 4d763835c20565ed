import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { decodeVersioningBehavior } from '@temporalio/common';
import { KycClient } from '../../src/client/kyc.js';
import { loadConfig } from '../../src/config.js';
import * as api from '../../src/provider/endpoints.js';
import { providerFromConfig } from '../../src/provider/from-config.js';
import { gitCommit } from '../../worker/build-id.js';
import { createWorker } from '../../worker/create-worker.js';
import { kycWorkflowId } from '../../workflows/kyc/messages.js';
import { walletWorkflowId } from '../../workflows/wallet/messages.js';
import { eventually, startStack, type Stack } from '../helpers/stack.js';

// The workers of `npm test` are versioned as a deployment's are (docs/deploying.md): the first
// version made itself current, a KYC is pinned to it and a wallet follows the current version. A
// worker with WORKER_VERSIONING=off runs its processes unversioned, as for a server without
// Worker Deployments. The rollout itself is test/cluster/worker-versioning.test.ts.

describe('versioned workers on the dev server', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack();
  });
  after(async () => stack?.stop());

  async function versionOf(workflowId: string) {
    const { raw } = await stack.client.workflow.getHandle(workflowId).describe();
    const info = raw.workflowExecutionInfo?.versioningInfo;
    return {
      deploymentName: info?.deploymentVersion?.deploymentName || undefined,
      buildId: info?.deploymentVersion?.buildId || undefined,
      behavior: decodeVersioningBehavior(info?.behavior),
    };
  }
  const newAccount = async () => (await stack.provider.call(api.createAccount, { body: { country: 'US' } })).id;

  it('pins a KYC to the version of this checkout, and lets a wallet follow the current version', async () => {
    const version = { deploymentName: 'payflows', buildId: gitCommit() };
    const kyc = new KycClient(stack.client, { taskQueue: stack.taskQueue, claims: stack.claims, timing: stack.timing });
    const accountId = await newAccount();
    await kyc.start(accountId);
    const { walletId } = await stack.wallets.open({ name: `versioned-${randomUUID().slice(0, 8)}` });
    await eventually(async () => {
      assert.deepEqual(await versionOf(kycWorkflowId(accountId)), { ...version, behavior: 'PINNED' });
      assert.deepEqual(await versionOf(walletWorkflowId(walletId)), { ...version, behavior: 'AUTO_UPGRADE' });
    });
    await stack.client.workflow.getHandle(kycWorkflowId(accountId)).terminate('test done');
    await stack.client.workflow.getHandle(walletWorkflowId(walletId)).terminate('test done');
  });

  it('with WORKER_VERSIONING=off, a worker runs its processes unversioned', async () => {
    const taskQueue = `unversioned-${randomUUID()}`;
    const config = loadConfig({ ...stack.workerEnv, TEMPORAL_TASK_QUEUE: taskQueue, WORKER_VERSIONING: 'off' });
    const provider = providerFromConfig(config);
    const { worker, connection, version, currentVersion } = await createWorker({
      config,
      provider,
      claims: stack.claims,
      workflowBundlePath: process.env.TEST_WORKFLOW_BUNDLE,
    });
    assert.equal(version, undefined);
    assert.equal(await currentVersion, undefined, 'no deployment to make current');
    const running = worker.run();
    try {
      const kyc = new KycClient(stack.client, { taskQueue, claims: stack.claims, timing: stack.timing });
      const accountId = await newAccount();
      await kyc.start(accountId);
      // It runs: the KYC answers its state, and the server records no version for it.
      const state = await eventually(() => kyc.state(accountId));
      assert.equal(state.accountId, accountId);
      assert.deepEqual(await versionOf(kycWorkflowId(accountId)), {
        deploymentName: undefined,
        buildId: undefined,
        behavior: undefined,
      });
      await stack.client.workflow.getHandle(kycWorkflowId(accountId)).terminate('test done');
    } finally {
      worker.shutdown();
      await running;
      await connection.close();
      await provider.close();
    }
  });
});
