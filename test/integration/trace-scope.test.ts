import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { bundleWorkflows } from '../../scripts/lib/workflow-bundle.js';
import { startTracing, workerTracingOptions } from '../../src/telemetry/tracing.js';
import { workflowInterceptorModules } from '../../worker/create-worker.js';
import { resultWithin } from '../helpers/result.js';
import { temporalAddress } from '../helpers/stack.js';

// The workflows' trace context lives in an AsyncLocalStorage. Node gives every promise created in
// a thread a slot per storage enabled in it: a storage per cached workflow made each promise of
// the worker cost in proportion to the workflows cached (0.18 MB a wallet at 200 cached, in
// `npm run bench`). The traced bundle, as a worker loads it, keeps one storage for all of them.

describe('the workflows’ trace context', () => {
  let connection: NativeConnection;
  let client: Connection;
  let code: string;
  before(async () => {
    Runtime.install({ logger: new DefaultLogger('ERROR') });
    connection = await NativeConnection.connect({ address: temporalAddress() });
    client = await Connection.connect({ address: temporalAddress() });
    code = await bundleWorkflows(
      workflowInterceptorModules,
      fileURLToPath(new URL('../fixtures/promise-slots/index.ts', import.meta.url)),
    );
  });
  after(async () => {
    await client?.close();
    await connection?.close();
  });

  it('a promise costs the same however many traced workflows the worker has cached', async () => {
    const { Client } = await import('@temporalio/client');
    const temporal = new Client({ connection: client });
    const taskQueue = `trace-scope-${randomUUID()}`;
    const worker = await Worker.create({
      connection,
      taskQueue,
      workflowBundle: { code },
      sinks: workerTracingOptions(startTracing({ service: 'worker' })).sinks,
      maxCachedWorkflows: 100,
    });
    const slots = async () => {
      const workflowId = `slots-${randomUUID()}`;
      const run = temporal.workflow.execute('promiseSlotsWorkflow', { taskQueue, workflowId });
      return resultWithin(run, workflowId) as Promise<number>;
    };
    await worker.runUntil(async () => {
      const before = await slots();
      const waiting = await Promise.all(
        Array.from({ length: 20 }, () =>
          temporal.workflow.start('waitingWorkflow', { taskQueue, workflowId: `waiting-${randomUUID()}` }),
        ),
      );
      // Each has run its first task, so it is cached and its interceptors have run.
      await Promise.all(waiting.map((w) => w.query('__temporal_workflow_metadata')));
      const cached = await slots();
      assert.equal(cached, before, `${cached} slots per promise with 20 more workflows cached, ${before} before`);
      await Promise.all(waiting.map((w) => w.signal('release')));
      await Promise.all(waiting.map((w) => resultWithin(w.result(), w.workflowId)));
    });
  });
});
