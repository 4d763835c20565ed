import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { connect, createServer, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { request } from 'undici';
import { ProvisioningClient } from '../../workflows/provisioning/client.js';
import { generateClientSecret } from '../../src/provider/client-token.js';
import { callbackSignature } from '../../src/provider/signing.js';
import { freePort } from '../../src/temporal/ports.js';
import { eventually, startStack, type Stack } from '../helpers/stack.js';
import { kill, spawnWorker } from '../helpers/worker-process.js';
import { walletWorkflowId } from '../../workflows/wallet/messages.js';
import { depositCallback } from '../helpers/callback.js';
import { resultWithin } from '../helpers/result.js';
import { provisioningWorkflowId } from '../../workflows/provisioning/messages.js';

// SIGTERM, as an orchestrator sends it before a redeploy, drains a process instead of cutting it
// off: the worker finishes the activity it runs and takes no new task; the ingress answers the
// callback it is receiving and refuses new connections. The worker's health endpoint tells.

async function health(
  port: number,
): Promise<{ status: number; body: { status: string; state: string; temporal: string } }> {
  const res = await request(`http://127.0.0.1:${port}/health`);
  return {
    status: res.statusCode,
    body: (await res.body.json()) as { status: string; state: string; temporal: string },
  };
}

/**
 * A TCP door to the run's Temporal server, that a test can shut (the open connections reset, new
 * ones refused) and open again: a Temporal that stops answering, without stopping the shared one.
 */
async function temporalDoor(target: string) {
  const [host, port] = [target.slice(0, target.lastIndexOf(':')), Number(target.slice(target.lastIndexOf(':') + 1))];
  let open = true;
  const sockets = new Set<Socket>();
  const server = createServer((inbound) => {
    if (!open) return void inbound.destroy();
    const outbound = connect(port, host);
    for (const socket of [inbound, outbound]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        sockets.delete(socket);
        inbound.destroy();
        outbound.destroy();
      });
    }
    inbound.pipe(outbound).pipe(inbound);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const shut = () => {
    open = false;
    for (const socket of sockets) socket.destroy();
  };
  return {
    address: `127.0.0.1:${(server.address() as { port: number }).port}`,
    shut,
    reopen: () => void (open = true),
    close: () => (shut(), server.close()),
  };
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return once(child, 'exit').then(([code]) => code as number | null);
}

describe('graceful shutdown', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack();
  });
  after(async () => {
    await stack?.op('DELETE', '/sandbox/knobs/faults');
    await stack?.stop();
  });

  it('a worker drains on SIGTERM: the running activity completes once, its health turns 503, and it exits 0', async () => {
    const taskQueue = `drain-${randomUUID()}`;
    const healthPort = await freePort();
    const env = {
      ...stack.workerEnv,
      TEMPORAL_TASK_QUEUE: taskQueue,
      WORKER_SHUTDOWN_GRACE: '30s',
      WORKER_HEALTH_PORT: String(healthPort),
    };
    const provisioning = new ProvisioningClient(stack.client, {
      taskQueue,
      claims: stack.claims,
      activityTimeoutMs: 60_000,
    });
    // The provider holds the creation for a while, so that the signal comes with the call in flight.
    await stack.op('PUT', '/sandbox/knobs/faults', { route: 'POST /v3/accounts', latencyMs: 3_000 });
    let worker = await spawnWorker(env);
    try {
      assert.deepEqual(await health(healthPort), {
        status: 200,
        body: { status: 'ok', state: 'RUNNING', temporal: 'connected' },
      });
      const clientRef = `drain-${randomUUID()}`;
      const id = await provisioning.start({ clientRef, country: 'FR', secret: generateClientSecret() });
      await eventually(
        async () => {
          const pending = (await stack.client.workflow.getHandle(id).describe()).raw.pendingActivities ?? [];
          assert.ok(
            pending.some((a) => a.activityType?.name === 'createAccountWithToken' && a.lastStartedTime),
            'the creation is running',
          );
        },
        30_000,
        50,
      );
      const exit = exited(worker);
      worker.kill('SIGTERM');
      // The provider still holds the call: the worker is draining, and says so.
      const draining = await eventually(
        async () => {
          const answer = await health(healthPort);
          assert.equal(answer.status, 503, 'a draining worker is not healthy');
          return answer;
        },
        2_500,
        50,
      );
      assert.notEqual(draining.body.state, 'RUNNING');
      assert.equal(await exit, 0, 'a clean exit');
      const events = (await stack.client.workflow.getHandle(id).fetchHistory()).events ?? [];
      const completed = events.filter((e) => e.activityTaskCompletedEventAttributes);
      const started = events.filter((e) => e.activityTaskStartedEventAttributes);
      assert.ok(completed.length >= 1, 'the activity in flight reported its result before the worker left');
      assert.ok(
        started.every((e) => Number(e.activityTaskStartedEventAttributes!.attempt) === 1),
        'nothing ran twice',
      );
      await stack.op('DELETE', '/sandbox/knobs/faults');
      worker = await spawnWorker(env);
      assert.equal(
        (await resultWithin(provisioning.result(clientRef), provisioningWorkflowId(clientRef))).outcome,
        'CREATED',
      );
    } finally {
      await kill(worker);
    }
  });

  it("a worker whose Temporal stops answering says so: 503 with the reason within the check's deadline, 200 again once it answers", async () => {
    const door = await temporalDoor(stack.workerEnv.TEMPORAL_ADDRESS);
    const healthPort = await freePort();
    const worker = await spawnWorker({
      ...stack.workerEnv,
      TEMPORAL_ADDRESS: door.address,
      TEMPORAL_TASK_QUEUE: `unreachable-${randomUUID()}`,
      WORKER_HEALTH_PORT: String(healthPort),
    });
    const ok = { status: 200, body: { status: 'ok', state: 'RUNNING', temporal: 'connected' } };
    try {
      assert.deepEqual(await health(healthPort), ok);
      door.shut();
      const asked = Date.now();
      assert.deepEqual(await health(healthPort), {
        status: 503,
        body: { status: 'unavailable', state: 'RUNNING', temporal: 'unreachable' },
      });
      // Below the HEALTHCHECK script's 3 s: an orchestrator hears the reason, not a timeout.
      assert.ok(Date.now() - asked < 3_000, `answered in ${Date.now() - asked} ms`);
      door.reopen();
      await eventually(async () => assert.deepEqual(await health(healthPort), ok), 30_000, 200);
    } finally {
      await kill(worker);
      door.close();
    }
  });

  it('the ingress drains on SIGTERM: the callback it is receiving is answered, new connections are refused, it exits 0', async () => {
    const [port, opsPort] = [await freePort(), await freePort()];
    const taskQueue = `drain-ingress-${randomUUID()}`;
    const ingress = spawn(process.execPath, ['--import', 'tsx', 'src/ingress/main.ts'], {
      env: {
        ...process.env,
        ...stack.workerEnv,
        TEMPORAL_TASK_QUEUE: taskQueue,
        INGRESS_PORT: String(port),
        INGRESS_OPS_PORT: String(opsPort),
        INGRESS_SHUTDOWN_GRACE: '20s',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    ingress.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    ingress.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    try {
      await eventually(() => assert.match(output, /ingress listening/), 60_000, 100);
      const walletId = `WA_DRAIN${randomUUID().slice(0, 6).toUpperCase()}`;
      const body = depositCallback(walletId, { createdAt: Date.now(), amount: 0.5 });
      const socket = connect(port, '127.0.0.1');
      await once(socket, 'connect');
      let answer = '';
      socket.on('data', (c: Buffer) => (answer += c.toString()));
      const half = Math.floor(body.length / 2);
      socket.write(
        `POST /callbacks HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Api-Signature: ${callbackSignature(stack.secretKey, body)}\r\n\r\n${body.slice(0, half)}`,
      );
      await new Promise((r) => setTimeout(r, 300));
      const exit = exited(ingress);
      ingress.kill('SIGTERM');
      await eventually(() => assert.match(output, /ingress draining/), 10_000, 50);
      await eventually(
        async () => {
          const refused = await request(`http://127.0.0.1:${port}/callbacks`, { method: 'POST', body: '{}' }).then(
            () => false,
            (err: { code?: string }) => err.code === 'ECONNREFUSED',
          );
          assert.ok(refused, 'a new connection is refused');
        },
        10_000,
        100,
      );
      // The rest of the body, on the connection that was open before the signal (no FIN: a
      // half-closed request is one that Node's server gives up on).
      socket.write(body.slice(half));
      await eventually(() => assert.match(answer, /^HTTP\/1\.1 200 /, output), 15_000, 50);
      assert.equal(await exit, 0);
      socket.destroy();
      const handle = stack.client.workflow.getHandle(walletWorkflowId(walletId));
      assert.equal((await handle.describe()).status.name, 'RUNNING', 'the callback reached its wallet');
      await handle.terminate('test done');
    } finally {
      ingress.kill('SIGKILL');
    }
  });
});
