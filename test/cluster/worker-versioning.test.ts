import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { type Client, QueryNotRegisteredError } from '@temporalio/client';
import { decodeVersioningBehavior } from '@temporalio/common';
import proto from '@temporalio/proto';
import { DefaultLogger, Runtime, type Worker } from '@temporalio/worker';
import { request } from 'undici';
import { connectClients, type ConnectedClients } from '../../src/client/index.js';
import { loadConfig } from '../../src/config.js';
import { add } from '../../src/decimal.js';
import type { ProviderClient } from '../../src/provider/client.js';
import * as api from '../../src/provider/endpoints.js';
import { providerFromConfig } from '../../src/provider/from-config.js';
import { callbackSignature } from '../../src/provider/signing.js';
import { findTemporalCli } from '../../src/temporal/cli.js';
import { accountWithProfile } from '../../scripts/fixtures/account.js';
import { operatorCalls } from '../../scripts/fixtures/operator.js';
import { bundleWorkflows } from '../../scripts/lib/workflow-bundle.js';
import { createWorker, untracedWorkflowInterceptorModules } from '../../worker/create-worker.js';
import { checkoutWorkflowId } from '../../workflows/checkout/messages.js';
import { kycWorkflowId } from '../../workflows/kyc/messages.js';
import {
  backendTemporalEnv,
  type ClusterDescription,
  clusterDescription,
  clusterProvider,
  clusterClient,
  clusterClientEnv,
  clusterUserToken,
} from '../helpers/cluster.js';
import { resultWithin } from '../helpers/result.js';
import { eventually } from '../helpers/stack.js';

// A deploy and a rollback with Worker Versioning on the PostgreSQL cluster, with the commands of
// docs/deploying.md: version 1 runs; a KYC, a checkout and a wallet start on it; version 2 (a KYC
// that answers the `build` query) starts beside it, is ramped, then made current. New runs go to
// version 2 while the pinned KYC and checkout finish on version 1; the wallet (AUTO_UPGRADE) moves
// to version 2 and counts every deposit once; version 1 shows DRAINING, then DRAINED, and stops.
// Rolled back, version 1 is current again and new runs go to it.

const execFileAsync = promisify(execFile);
const TIMING = { pollInitialMs: 300, pollMaxMs: 2_000 };
const { VersionDrainageStatus } = proto.temporal.api.enums.v1;

interface RunningVersion {
  buildId: string;
  worker: Worker;
  running: Promise<void>;
  stop(): Promise<void>;
}

describe('a rollout and a rollback with Worker Versioning', () => {
  const run = randomUUID().slice(0, 8);
  // A deployment and a task queue of this test's own: the cluster's workers are another deployment.
  const deploymentName = `payflows-rollout-${run}`;
  const taskQueue = `rollout-${run}`;
  const V1 = `v1-${run}`;
  const V2 = `v2-${run}`;
  let cluster: ClusterDescription;
  let clients: ConnectedClients;
  /** The tests' administrator: ends what the test started (a service's writer role may not). */
  let admin: Client;
  let provider: ProviderClient;
  let cli: string;
  let version2Bundle: string;
  const started: RunningVersion[] = [];

  before(async () => {
    cluster = clusterDescription();
    Runtime.install({ logger: new DefaultLogger('ERROR') });
    clients = await connectClients({
      env: clusterClientEnv(cluster, taskQueue),
      timing: TIMING,
    });
    admin = await clusterClient(cluster);
    provider = clusterProvider(cluster);
    const found = await findTemporalCli({ log: () => {} });
    assert.equal(found.kind, 'binary', 'the Temporal CLI that the cluster was set up with');
    cli = found.kind === 'binary' ? found.path : '';
    // Version 2: the product's workflows with the KYC that answers `build` (test/fixtures/version-2).
    version2Bundle = join(mkdtempSync(join(tmpdir(), 'payflows-version-2-')), 'workflow-bundle.js');
    writeFileSync(
      version2Bundle,
      await bundleWorkflows(
        untracedWorkflowInterceptorModules,
        new URL('../fixtures/version-2/index.ts', import.meta.url).pathname,
      ),
    );
  });
  after(async () => {
    for (const v of started) await v.stop().catch(() => {});
    await provider?.close();
    await admin?.connection.close();
    await clients?.close();
    if (version2Bundle) rmSync(dirname(version2Bundle), { recursive: true, force: true });
  });

  /** A worker of `buildId` on this test's task queue, as `npm run worker` with WORKER_BUILD_ID would run. */
  async function startVersion(buildId: string, workflowBundlePath: string | undefined) {
    const config = loadConfig({
      ...cluster.workerEnv,
      TEMPORAL_TASK_QUEUE: taskQueue,
      WORKER_DEPLOYMENT_NAME: deploymentName,
      WORKER_BUILD_ID: buildId,
      // This deployment is new: its first version may make itself current (off by default here).
      WORKER_VERSION_BOOTSTRAP: 'on',
      WORKER_SHUTDOWN_GRACE: '1s',
    });
    const workerProvider = providerFromConfig(config);
    const { worker, connection, currentVersion } = await createWorker({
      config,
      provider: workerProvider,
      workflowBundlePath,
    });
    const running = worker.run();
    const v: RunningVersion = {
      buildId,
      worker,
      running,
      async stop() {
        if (worker.getState() === 'RUNNING') worker.shutdown();
        await running;
        await connection.close();
        await workerProvider.close();
      },
    };
    started.push(v);
    return { version: v, currentVersion };
  }

  /** What an operator types (docs/deploying.md), against this cluster: signed in as the operator, over TLS. */
  async function deployment(...args: string[]): Promise<string> {
    const operator = {
      ...(await backendTemporalEnv(cluster)),
      TEMPORAL_API_KEY: await clusterUserToken(cluster, 'operator'),
    };
    const { stdout } = await execFileAsync(
      cli,
      [
        'worker',
        'deployment',
        ...args,
        '--deployment-name',
        deploymentName,
        '--address',
        cluster.temporal.address,
        '--namespace',
        cluster.temporal.namespace,
      ],
      { env: { ...process.env, ...operator } },
    );
    return stdout;
  }

  const service = () => clients.temporal.connection.workflowService;
  /** The version a run is on and how it moves, as the server records it. */
  async function versionOf(workflowId: string, runId?: string) {
    const { raw } = await clients.temporal.workflow.getHandle(workflowId, runId).describe();
    const info = raw.workflowExecutionInfo?.versioningInfo;
    return { buildId: info?.deploymentVersion?.buildId, behavior: decodeVersioningBehavior(info?.behavior) };
  }
  const versionOnceSet = (workflowId: string, runId?: string) =>
    eventually(async () => {
      const v = await versionOf(workflowId, runId);
      assert.ok(v.buildId, `${workflowId} has run a workflow task on a versioned worker`);
      return v;
    }, 30_000);
  async function drainage(buildId: string) {
    const { workerDeploymentVersionInfo: info } = await service().describeWorkerDeploymentVersion({
      namespace: cluster.temporal.namespace,
      deploymentVersion: { deploymentName, buildId },
    });
    return info?.drainageInfo?.status ?? VersionDrainageStatus.VERSION_DRAINAGE_STATUS_UNSPECIFIED;
  }
  async function routing() {
    const { workerDeploymentInfo } = await service().describeWorkerDeployment({
      namespace: cluster.temporal.namespace,
      deploymentName,
    });
    const config = workerDeploymentInfo?.routingConfig;
    return {
      current: config?.currentDeploymentVersion?.buildId || undefined,
      ramping: config?.rampingDeploymentVersion?.buildId || undefined,
      percentage: config?.rampingVersionPercentage ?? 0,
    };
  }
  /** Whether a KYC run answers version 2's query: only version 2's code does. */
  async function answersBuild(workflowId: string): Promise<string | undefined> {
    try {
      return await clients.temporal.workflow.getHandle(workflowId).query<string>('build');
    } catch (err) {
      // Its message is encoded as every failure is (src/temporal/failure-converter.ts).
      assert.ok(err instanceof QueryNotRegisteredError, `the query is unknown to version 1: ${String(err)}`);
      return undefined;
    }
  }
  async function deposit(walletId: string, amount: string) {
    const { transaction } = await operatorCalls(cluster.sandboxUrl).op<{ transaction: unknown }>(
      'POST',
      `/sandbox/wallets/${walletId}/deposits`,
      { currency: 'BTC', amount, confirmed: true },
    );
    return transaction;
  }
  async function newKyc(): Promise<string> {
    const account = await provider.call(api.createAccount, { body: { country: 'US' } });
    await clients.kyc.start(account.id);
    return kycWorkflowId(account.id);
  }
  const terminate = (ids: string[]) =>
    Promise.all(
      ids.map((id) =>
        admin.workflow
          .getHandle(id)
          .terminate('test done')
          .catch(() => {}),
      ),
    );

  it('deploys version 2 beside version 1, ramps it, makes it current, drains and stops version 1, then rolls back', async () => {
    const sandbox = { provider, op: operatorCalls(cluster.sandboxUrl).op };
    const cleanup: string[] = [];
    try {
      // Version 1, the deployment's first: it makes itself current (docs/deploying.md).
      const v1 = await startVersion(V1, process.env.TEST_WORKFLOW_BUNDLE);
      assert.deepEqual(await v1.currentVersion, { outcome: 'made-current', previous: undefined });
      assert.equal((await routing()).current, V1);

      // On version 1: a KYC waiting for the end user, a checkout waiting for the purchase, a wallet.
      const accountId = await accountWithProfile(sandbox, { reject: { individualSsn: 'ssn.invalid' } });
      const kycV1 = kycWorkflowId(accountId);
      await clients.kyc.start(accountId);
      const dest = (await provider.call(api.createWallet, { body: { name: `rollout-dest-${run}` } })).srn;
      const orderRef = `rollout-${run}`;
      const page = await clients.checkout.startAndGetPage({
        orderRef,
        sourceAmount: 50,
        sourceCurrency: 'USD',
        destCurrency: 'USD',
        dest,
        redirectUrl: 'https://shop.example/done',
      });
      const { walletId, walletWorkflowId: walletWf } = await clients.wallets.open({ name: `rollout-${run}` });
      cleanup.push(kycV1, checkoutWorkflowId(orderRef), walletWf);
      const first = await deposit(walletId, '0.001');
      await eventually(async () =>
        assert.equal((await clients.wallets.state(walletId)).balances.BTC?.confirmed, '0.001'),
      );
      assert.deepEqual(await versionOnceSet(kycV1), { buildId: V1, behavior: 'PINNED' });
      assert.deepEqual(await versionOnceSet(checkoutWorkflowId(orderRef)), { buildId: V1, behavior: 'PINNED' });
      assert.deepEqual(await versionOnceSet(walletWf), { buildId: V1, behavior: 'AUTO_UPGRADE' });
      assert.equal(await answersBuild(kycV1), undefined, 'version 1 has no `build` query');

      // Version 2 beside it: not current, so it gets nothing until an operator says so.
      const v2 = await startVersion(V2, version2Bundle);
      assert.deepEqual(await v2.currentVersion, {
        outcome: 'left',
        current: V1,
        why: 'a current version was set before',
      });

      // Ramped: a share of new runs (by workflow id) goes to version 2, the rest to version 1.
      await eventually(
        () => deployment('set-ramping-version', '--build-id', V2, '--percentage', '50', '--yes'),
        30_000,
        1_000,
      );
      assert.deepEqual(await routing(), { current: V1, ramping: V2, percentage: 50 });
      // 40 runs: all on one version by chance once in 2^39 (about 2e-12), where 12 did once in 2048.
      const ramped = await Promise.all(Array.from({ length: 40 }, () => newKyc()));
      cleanup.push(...ramped);
      const landed = await Promise.all(ramped.map(async (id) => (await versionOnceSet(id)).buildId));
      assert.ok(landed.includes(V1) && landed.includes(V2), `40 runs at 50%: ${landed.join(', ')}`);
      // Those on version 1 are pinned there: ended now, so that version 1 can drain.
      await terminate(ramped);

      // Made current: new runs go to version 2, and only its code answers `build`.
      await deployment('set-current-version', '--build-id', V2, '--yes');
      assert.deepEqual(await routing(), { current: V2, ramping: undefined, percentage: 0 });
      const kycV2 = await newKyc();
      cleanup.push(kycV2);
      assert.deepEqual(await versionOnceSet(kycV2), { buildId: V2, behavior: 'PINNED' });
      assert.equal(await eventually(() => answersBuild(kycV2)), 'version 2');

      // The wallet moves to version 2 at its next task and counts on: a new deposit, and the
      // first one's callback again (a resend), counted once.
      const second = await deposit(walletId, '0.02');
      const body = JSON.stringify(first);
      const resend = await request(`${cluster.ingressUrls[1]}/callbacks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-signature': callbackSignature(cluster.secretKey, body) },
        body,
      });
      await resend.body.dump();
      assert.equal(resend.statusCode, 200);
      assert.ok(second);
      await eventually(async () => {
        assert.equal((await clients.wallets.state(walletId)).balances.BTC?.confirmed, add('0.001', '0.02'));
        assert.deepEqual(await versionOf(walletWf), { buildId: V2, behavior: 'AUTO_UPGRADE' });
      }, 30_000);

      // Version 1 drains: its pinned KYC and checkout are still open on it, and finish there.
      await eventually(
        async () => assert.equal(await drainage(V1), VersionDrainageStatus.VERSION_DRAINAGE_STATUS_DRAINING),
        30_000,
        1_000,
      );
      assert.match(await deployment('describe-version', '--build-id', V1), /Draining/i);
      await clients.kyc.submitValue(accountId, 'individualSsn', '123-45-6789');
      await sandbox.op('POST', `/sandbox/accounts/${accountId}/fields/individualSsn/approve`);
      assert.equal((await resultWithin(clients.kyc.result(accountId), kycV1)).outcome, 'APPROVED');
      await sandbox.op('POST', `/sandbox/reservations/${page.reservation}/complete`, {});
      assert.equal(
        (await resultWithin(clients.checkout.result(orderRef), checkoutWorkflowId(orderRef))).outcome,
        'COMPLETED',
      );
      assert.deepEqual(await versionOf(kycV1), { buildId: V1, behavior: 'PINNED' }, 'finished on version 1');
      assert.deepEqual(await versionOf(checkoutWorkflowId(orderRef)), { buildId: V1, behavior: 'PINNED' });
      assert.equal(await answersBuild(kycV1), undefined, 'version 1 code to the end');
      await eventually(
        async () => assert.equal(await drainage(V1), VersionDrainageStatus.VERSION_DRAINAGE_STATUS_DRAINED),
        90_000,
        2_000,
      );
      assert.match(await deployment('describe-version', '--build-id', V1), /Drained/i);
      // Drained: version 1's workers stop, and nothing is left behind for them.
      await v1.version.stop();

      // The rollback: version 1's workers start again and it is made current; new runs go to it.
      const v1again = await startVersion(V1, process.env.TEST_WORKFLOW_BUNDLE);
      assert.deepEqual(await v1again.currentVersion, {
        outcome: 'left',
        current: V2,
        why: 'a current version was set before',
      });
      await eventually(() => deployment('set-current-version', '--build-id', V1, '--yes'), 30_000, 1_000);
      assert.deepEqual(await routing(), { current: V1, ramping: undefined, percentage: 0 });
      const kycAfter = await newKyc();
      cleanup.push(kycAfter);
      assert.deepEqual(await versionOnceSet(kycAfter), { buildId: V1, behavior: 'PINNED' });
      assert.equal(await answersBuild(kycAfter), undefined, 'version 1 code again');
      // The run pinned to version 2 stays there; the wallet follows the current version back.
      assert.deepEqual(await versionOf(kycV2), { buildId: V2, behavior: 'PINNED' });
      await deposit(walletId, '0.3');
      await eventually(async () => {
        assert.equal((await clients.wallets.state(walletId)).balances.BTC?.confirmed, add(add('0.001', '0.02'), '0.3'));
        assert.deepEqual(await versionOf(walletWf), { buildId: V1, behavior: 'AUTO_UPGRADE' });
      }, 30_000);
    } finally {
      await terminate(cleanup);
    }
  });
});
