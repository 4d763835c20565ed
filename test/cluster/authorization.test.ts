import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { Connection } from '@temporalio/client';
import proto from '@temporalio/proto';
import { generateKeyPair, SignJWT } from 'jose';
import { loadConfig } from '../../src/config.js';
import { connectClient } from '../../src/temporal/connection.js';
import { WalletsClient } from '../../workflows/wallet/client.js';
import { go, GO_TEST_ARGS, LOCAL_MODULES } from '../../scripts/lib/go-tools.js';
import { type RunningProcess, startProcess, stopProcess } from '../../scripts/lib/product-processes.js';
import {
  type ClusterDescription,
  clusterClientEnv,
  clusterDescription,
  clusterTls,
  clusterUserToken,
} from '../helpers/cluster.js';
import { serviceToken } from '../helpers/sign-in.js';

// The cluster's Temporal authorizes (deploy/temporal/server: Temporal's JWT claim mapper on the
// cluster's identity provider's keys, and our authorizer), its frontends with TLS behind the load
// balancer. Real tokens from the provider: a reader lists and reads but may not signal; an
// operator signals but may not terminate or reset; an admin resets and terminates; a forged or
// expired token is refused and changes nothing; a worker and a client run a process with the
// services' token (the writer role), fetched by client credentials.

const { EventType, WorkflowExecutionStatus } = proto.temporal.api.enums.v1;
const PERMISSION_DENIED = 7;
const UNAUTHENTICATED = 16;

/** A call Temporal refused for its credentials. */
async function refused(call: Promise<unknown>, what: string): Promise<void> {
  const err = await call.then(
    () => assert.fail(`${what} was allowed`),
    (e: unknown) => e as { code?: number; cause?: { code?: number }; message: string },
  );
  const code = err.code ?? err.cause?.code;
  assert.ok(
    code === PERMISSION_DENIED || code === UNAUTHENTICATED,
    `${what}: refused with code ${code}: ${err.message}`,
  );
}

describe('Temporal authorizes with the provider’s tokens', () => {
  let cluster: ClusterDescription;
  let worker: RunningProcess | undefined;
  let workerHome: string | undefined;
  const connections: Array<{ close(): Promise<void> }> = [];
  const taskQueue = `authz-${randomUUID()}`;

  before(() => {
    cluster = clusterDescription();
  });
  after(async () => {
    for (const c of connections) await c.close();
    if (worker) await stopProcess(worker);
    // The worker's home: its compiler cache, 30 MB a run.
    if (workerHome) rmSync(workerHome, { recursive: true, force: true });
  });

  /** A connection that presents `token`, over the same TLS as the others. */
  async function as(token: string): Promise<Connection> {
    const connection = await Connection.connect({
      address: cluster.temporal.address,
      tls: clusterTls(cluster),
      apiKey: token,
    });
    connections.push(connection);
    return connection;
  }
  const user = (name: string) => clusterUserToken(cluster, name);

  it("the authorizer's own tests pass (go test)", async () => {
    const { stdout } = await promisify(execFile)(go(), GO_TEST_ARGS, {
      cwd: LOCAL_MODULES.server.dir,
      env: { ...process.env, GOFLAGS: '-mod=readonly' },
    });
    assert.match(stdout, /^ok\s/m);
  });

  let workflowId: string;
  let runId: string;

  it("a worker and a client with the services' token (writer) run a process", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payflows-authz-worker-'));
    workerHome = dir;
    worker = await startProcess({
      name: 'authz-worker',
      command: process.execPath,
      args: ['--import', import.meta.resolve('tsx'), join(process.cwd(), 'worker/main.ts')],
      cwd: dir,
      // TLS and the services' client credentials, as the cluster's own workers have them.
      env: {
        ...cluster.workerEnv,
        TEMPORAL_TASK_QUEUE: taskQueue,
        PATH: process.env.PATH ?? '',
        HOME: dir,
      },
      log: join(dir, 'worker.log'),
      ready: '"msg":"worker polling"',
    });
    const client = await connectClient(loadConfig(clusterClientEnv(cluster, taskQueue)));
    connections.push(client.connection);
    const wallets = new WalletsClient(client, { taskQueue, pollIntervalMs: 3_600_000 });
    const opened = await wallets.open({ name: `authz-${randomUUID().slice(0, 8)}` });
    assert.match(opened.walletId, /^WA/);
    workflowId = opened.walletWorkflowId;
    const description = await client.workflow.getHandle(workflowId).describe();
    runId = description.runId;
    assert.equal(description.status.name, 'RUNNING');
    // The services' writer role does not reach a terminate either.
    await refused(client.workflow.getHandle(workflowId).terminate('by a service'), 'a service terminating');
  });

  /** What must not have changed after a refused call: the same run, running, never terminated or reset. */
  async function unchanged(admin: Connection) {
    const { workflowService } = admin;
    const namespace = cluster.temporal.namespace;
    const described = await workflowService.describeWorkflowExecution({
      namespace,
      execution: { workflowId },
    });
    assert.equal(described.workflowExecutionInfo?.execution?.runId, runId, 'the same run (no reset)');
    assert.equal(
      described.workflowExecutionInfo?.status,
      WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING,
      'still running',
    );
    const history = await workflowService.getWorkflowExecutionHistory({ namespace, execution: { workflowId, runId } });
    const types = history.history?.events?.map((e) => e.eventType) ?? [];
    assert.ok(!types.includes(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED), 'no termination in the history');
  }

  it('a reader lists and reads; its signal and terminate are refused', async () => {
    const { workflowService } = await as(await user('reader'));
    const namespace = cluster.temporal.namespace;
    const listed = await workflowService.listWorkflowExecutions({ namespace, query: `WorkflowId = '${workflowId}'` });
    assert.ok(listed.executions.length <= 1);
    await workflowService.describeWorkflowExecution({ namespace, execution: { workflowId } });
    await workflowService.getWorkflowExecutionHistory({ namespace, execution: { workflowId } });
    await refused(
      workflowService.signalWorkflowExecution({ namespace, workflowExecution: { workflowId }, signalName: 'probe' }),
      'a reader signalling',
    );
    await refused(
      workflowService.terminateWorkflowExecution({ namespace, workflowExecution: { workflowId }, reason: 'reader' }),
      'a reader terminating',
    );
    await unchanged(await as(await adminToken()));
  });

  const adminToken = () =>
    serviceToken(cluster.signIn.tokenUrl, cluster.signIn.admin.clientId, cluster.signIn.admin.clientSecret);

  /** The event after which a reset starts the run again: its first completed workflow task. */
  async function firstTaskCompleted(admin: Connection) {
    const history = await admin.workflowService.getWorkflowExecutionHistory({
      namespace: cluster.temporal.namespace,
      execution: { workflowId, runId },
    });
    const event = history.history?.events?.find((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED);
    assert.ok(event?.eventId, 'the run completed a workflow task');
    return event.eventId;
  }

  it('an operator signals; its terminate and reset are refused and change nothing', async () => {
    const { workflowService } = await as(await user('operator'));
    const namespace = cluster.temporal.namespace;
    await workflowService.signalWorkflowExecution({
      namespace,
      workflowExecution: { workflowId },
      signalName: 'authorization-probe',
    });
    // Which role it needs is in the refusal's details (PermissionDeniedFailure.reason), checked by
    // authorizer_test.go; the message itself is Temporal's generic one.
    await refused(
      workflowService.terminateWorkflowExecution({ namespace, workflowExecution: { workflowId }, reason: 'operator' }),
      'an operator terminating',
    );
    const admin = await as(await adminToken());
    await refused(
      workflowService.resetWorkflowExecution({
        namespace,
        workflowExecution: { workflowId, runId },
        workflowTaskFinishEventId: await firstTaskCompleted(admin),
        requestId: randomUUID(),
        reason: 'operator',
      }),
      'an operator resetting',
    );
    await unchanged(admin);
  });

  it('a forged token (another key) and an expired one are refused and change nothing', async () => {
    const namespace = cluster.temporal.namespace;
    const { privateKey } = await generateKeyPair('RS256');
    // The kid of one of the provider's own keys: the signature alone gives the forgery away.
    const published = (await (await fetch(cluster.signIn.jwksUrl)).json()) as { keys: Array<{ kid: string }> };
    const kid = published.keys[0]!.kid;
    const forged = await new SignJWT({ permissions: [`${namespace}:admin`] })
      .setProtectedHeader({ alg: 'RS256', kid })
      .setIssuer(cluster.signIn.issuer)
      .setAudience(cluster.signIn.audience)
      .setSubject('forger')
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(privateKey);
    // Refused at the first call, the connection's own (the claim mapper rejects the token before any authorizing).
    await refused(
      as(forged).then((c) =>
        c.workflowService.terminateWorkflowExecution({
          namespace,
          workflowExecution: { workflowId },
          reason: 'forged',
        }),
      ),
      'a forged admin token terminating',
    );
    const { shortLived } = cluster.signIn;
    const expiring = await serviceToken(cluster.signIn.tokenUrl, shortLived.clientId, shortLived.clientSecret);
    await new Promise((r) => setTimeout(r, (shortLived.accessTokenTtlSeconds + 1) * 1000));
    await refused(
      as(expiring).then((c) => c.workflowService.listWorkflowExecutions({ namespace, query: '' })),
      'an expired token listing',
    );
    await unchanged(await as(await adminToken()));
  });

  it('an admin resets and terminates', async () => {
    const admin = await as(await adminToken());
    const namespace = cluster.temporal.namespace;
    await admin.workflowService.resetWorkflowExecution({
      namespace,
      workflowExecution: { workflowId, runId },
      workflowTaskFinishEventId: await firstTaskCompleted(admin),
      requestId: randomUUID(),
      reason: 'admin',
    });
    const current = await admin.workflowService.describeWorkflowExecution({ namespace, execution: { workflowId } });
    assert.notEqual(current.workflowExecutionInfo?.execution?.runId, runId, 'the reset made a new run');
    await admin.workflowService.terminateWorkflowExecution({
      namespace,
      workflowExecution: { workflowId },
      reason: 'admin',
    });
    const described = await admin.workflowService.describeWorkflowExecution({ namespace, execution: { workflowId } });
    assert.equal(described.workflowExecutionInfo?.status, WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_TERMINATED);
  });
});
