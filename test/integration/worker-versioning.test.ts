import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { decodeVersioningBehavior } from '@temporalio/common';
import { KycClient } from '../../workflows/kyc/client.js';
import { WalletsClient } from '../../workflows/wallet/client.js';
import { loadConfig } from '../../src/config.js';
import * as api from '../../src/provider/endpoints.js';
import { providerFromConfig } from '../../src/provider/from-config.js';
import { createWorker } from '../../worker/create-worker.js';
import { kycWorkflowId } from '../../workflows/kyc/messages.js';
import { eventually, startStack, type Stack } from '../helpers/stack.js';

// The workers of `npm test` are versioned as a deployment's are (docs/deploying.md): the first
// version made itself current (WORKER_VERSION_BOOTSTRAP=on, set by the stack), a KYC is pinned to it and a wallet follows the current version. A
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

  it("pins a KYC to the run's version, and lets a wallet follow the current version", async () => {
    // The id the stack's worker was given (test/helpers/stack.ts): no git checkout needed.
    const version = { deploymentName: 'payflows', buildId: stack.workerEnv.WORKER_BUILD_ID };
    const kyc = new KycClient(stack.client, { taskQueue: stack.taskQueue, claims: stack.claims, timing: stack.timing });
    const accountId = await newAccount();
    await kyc.start(accountId);
    const { walletWorkflowId: workflowId } = await stack.wallets.open({
      name: `versioned-${randomUUID().slice(0, 8)}`,
    });
    await eventually(async () => {
      assert.deepEqual(await versionOf(kycWorkflowId(accountId)), { ...version, behavior: 'PINNED' });
      assert.deepEqual(await versionOf(workflowId), { ...version, behavior: 'AUTO_UPGRADE' });
    });
    await stack.client.workflow.getHandle(kycWorkflowId(accountId)).terminate('test done');
    await stack.client.workflow.getHandle(workflowId).terminate('test done');
  });

  it('beside unversioned workers, a versioned worker does not make itself current: the operator migrates', async () => {
    const run = randomUUID().slice(0, 8);
    const env = {
      ...stack.workerEnv,
      TEMPORAL_TASK_QUEUE: `migrating-${run}`,
      WORKER_DEPLOYMENT_NAME: `migrating-${run}`,
    };
    const started: Array<{ stop(): Promise<void> }> = [];
    const start = async (extra: Record<string, string>) => {
      const config = loadConfig({ ...env, ...extra });
      const provider = providerFromConfig(config);
      const w = await createWorker({
        config,
        provider,
        claims: stack.claims,
        // An unversioned worker bundles workflows/unversioned itself (worker/create-worker.ts).
        ...(extra.WORKER_VERSIONING === 'off' ? {} : { workflowBundlePath: process.env.TEST_WORKFLOW_BUNDLE }),
      });
      const running = w.worker.run();
      started.push({
        async stop() {
          w.worker.shutdown();
          await running;
          await w.connection.close();
          await provider.close();
        },
      });
      return w;
    };
    try {
      // The workers before versioning, polling the task queue.
      await start({ WORKER_VERSIONING: 'off' });
      const service = stack.client.connection.workflowService;
      await eventually(async () => {
        const { pollers } = await service.describeTaskQueue({
          namespace: stack.config.temporal.namespace,
          taskQueue: { name: env.TEMPORAL_TASK_QUEUE, kind: 1 },
          taskQueueType: 1,
        });
        assert.ok(pollers?.length, 'the unversioned worker polls');
      });
      // The first versioned build, bootstrap on as the tests' own servers have it: it stays out.
      const versioned = await start({ WORKER_BUILD_ID: `v1-${run}`, WORKER_VERSION_BOOTSTRAP: 'on' });
      const outcome = await versioned.currentVersion;
      assert.equal(outcome?.outcome, 'left', JSON.stringify(outcome));
      assert.match(outcome?.outcome === 'left' ? outcome.why : '', /unversioned workers poll/);
      const { workerDeploymentInfo } = await service.describeWorkerDeployment({
        namespace: stack.config.temporal.namespace,
        deploymentName: env.WORKER_DEPLOYMENT_NAME,
      });
      assert.equal(workerDeploymentInfo?.routingConfig?.currentDeploymentVersion?.buildId || undefined, undefined);
    } finally {
      for (const w of started.reverse()) await w.stop();
    }
  });

  it('with WORKER_VERSIONING=off, a worker runs its processes unversioned, the wallets included', async () => {
    const taskQueue = `unversioned-${randomUUID()}`;
    const config = loadConfig({ ...stack.workerEnv, TEMPORAL_TASK_QUEUE: taskQueue, WORKER_VERSIONING: 'off' });
    const provider = providerFromConfig(config);
    // No bundle given: the worker bundles workflows/unversioned, whose wallet names no behaviour
    // (the server refuses one from an unversioned worker, and the wallet's tasks would fail for ever).
    const { worker, connection, version, currentVersion } = await createWorker({
      config,
      provider,
      claims: stack.claims,
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

      // A wallet opens and its follower answers: its workflow tasks complete on the unversioned worker.
      const wallets = new WalletsClient(stack.client, { taskQueue, pollIntervalMs: 60_000, pollMaxMs: 60_000 });
      const { walletId, walletWorkflowId: workflowId } = await wallets.open({
        name: `unversioned-${randomUUID().slice(0, 8)}`,
      });
      const view = await eventually(() => wallets.state(walletId));
      assert.equal(view.walletId, walletId);
      assert.deepEqual(await versionOf(workflowId), {
        deploymentName: undefined,
        buildId: undefined,
        behavior: undefined,
      });
      await stack.client.workflow.getHandle(workflowId).terminate('test done');
    } finally {
      worker.shutdown();
      await running;
      await connection.close();
      await provider.close();
    }
  });
});
