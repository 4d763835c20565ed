import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { Resource } from '@opentelemetry/resources';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { Client } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { makeWorkflowExporter } from '@temporalio/interceptors-opentelemetry/lib/worker/index.js';
import { DefaultLogger, type NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { bundleWorkflows } from '../../scripts/lib/workflow-bundle.js';
import { workflowInterceptorModules } from '../../worker/create-worker.js';
import { fromCarrier, TRACE_HEADER } from '../../workflows/lib/trace-context.js';
import { resultWithin } from '../helpers/result.js';
import { eventually, temporalConnections } from '../helpers/stack.js';

// The workflows' trace context (workflows/tracing-interceptors.ts) as a worker runs it, with the
// traced bundle and its preloaded modules.

describe('the workflows’ trace context', () => {
  let connection: NativeConnection;
  let client: Client;
  let code: string;
  before(async () => {
    Runtime.install({ logger: new DefaultLogger('ERROR') });
    const connections = await temporalConnections();
    connection = connections.native;
    client = new Client({ connection: connections.connection });
    code = await bundleWorkflows(
      workflowInterceptorModules,
      fileURLToPath(new URL('../fixtures/traced-workflows/index.ts', import.meta.url)),
    );
  });
  after(async () => {
    await client?.connection.close();
    await connection?.close();
  });

  /** A worker of the traced bundle on `taskQueue`, whose workflows' spans land in `spans`. */
  const workflowWorker = (taskQueue: string, spans: InMemorySpanExporter, maxCachedWorkflows = 100) =>
    Worker.create({
      connection,
      taskQueue,
      workflowBundle: { code },
      sinks: { exporter: makeWorkflowExporter(spans, new Resource({ 'service.name': 'test' })) },
      maxCachedWorkflows,
    });

  it('a promise costs the same however many traced workflows the worker has cached', async (t) => {
    // Node gives every promise created in a thread a slot per AsyncLocalStorage enabled in it: a
    // storage per cached workflow made each promise of the worker cost in proportion to the cache
    // (0.18 MB more heap a wallet at 200 cached, in `npm run bench`). One storage serves them all.
    const taskQueue = `trace-scope-${randomUUID()}`;
    const worker = await workflowWorker(taskQueue, new InMemorySpanExporter());
    const slots = async () => {
      const workflowId = `slots-${randomUUID()}`;
      return resultWithin(client.workflow.execute('promiseSlotsWorkflow', { taskQueue, workflowId }), workflowId);
    };
    await worker.runUntil(async () => {
      const before = (await slots()) as number;
      if (before === 0) return t.skip('this Node keeps async contexts without a slot per storage');
      const waiting = await Promise.all(
        Array.from({ length: 20 }, () =>
          client.workflow.start('waitingWorkflow', { taskQueue, workflowId: `waiting-${randomUUID()}` }),
        ),
      );
      // Each has run its first task, so it is cached and its interceptors have run.
      await Promise.all(waiting.map((h) => h.query('released')));
      const cached = await slots();
      assert.equal(cached, before, `${cached} slots per promise with 20 more workflows cached, ${before} before`);
      await Promise.all(waiting.map((h) => h.signal('release')));
      await Promise.all(waiting.map((h) => resultWithin(h.result(), h.workflowId)));
    });
  });

  it('a span open across a worker restart ends with the id its header carried, queries or not', async () => {
    // Span ids are drawn from a random stream that a replay draws from again; a query, which a
    // replay does not run, must not draw from it, or every id drawn after it differs on replay.
    const taskQueue = `trace-scope-${randomUUID()}`;
    let finish!: (v: string) => void;
    const finished = new Promise<string>((resolve) => (finish = resolve));
    let started = false;
    const activities = await Worker.create({
      connection,
      taskQueue: `${taskQueue}-activities`,
      activities: {
        slow: () => {
          started = true;
          return finished;
        },
      },
    });
    await activities.runUntil(async () => {
      const workflowId = `one-activity-${randomUUID()}`;
      const first = await workflowWorker(taskQueue, new InMemorySpanExporter());
      const handle = await first.runUntil(async () => {
        const h = await client.workflow.start('oneActivityWorkflow', { taskQueue, workflowId });
        assert.equal(await h.query('released'), false);
        assert.equal(await h.query('released'), false);
        await h.signal('release');
        await eventually(() => assert.ok(started, 'the activity started'));
        return h;
      });
      // A new worker: the workflow is replayed from its history when its activity ends.
      const spans = new InMemorySpanExporter();
      const second = await workflowWorker(taskQueue, spans);
      await second.runUntil(async () => {
        finish('done');
        assert.equal(await resultWithin(handle.result(), workflowId), 'done');
      });
      const { events } = await handle.fetchHistory();
      const scheduled = events?.find(
        (e) => e.activityTaskScheduledEventAttributes,
      )?.activityTaskScheduledEventAttributes;
      const header = scheduled?.header?.fields?.[TRACE_HEADER];
      assert.ok(header, 'the activity was scheduled with a trace header');
      const carried = fromCarrier(defaultPayloadConverter.fromPayload(header));
      const span = spans.getFinishedSpans().find((s) => s.name === 'StartActivity:slow');
      assert.ok(span, `no StartActivity span among ${spans.getFinishedSpans().map((s) => s.name)}`);
      assert.equal(span.spanContext().spanId, carried?.spanId, 'the span the activity’s header names');
      assert.equal(span.spanContext().traceId, carried?.traceId);
    });
  });
});
