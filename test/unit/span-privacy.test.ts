import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SpanStatusCode, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ApplicationFailure } from '@temporalio/common';
import { startTracing } from '../../src/telemetry/tracing.js';

// Temporal's tracing interceptors put an error's message on its span's status and its message and
// stack on an exception event; a message can quote an input (an SSN, a name, an e-mail address),
// and traces leave the process in plain text. What leaves is the error's type, never its text.

describe('spans carry an error’s type, never its message or stack', () => {
  it('a span that recorded an exception is exported with its type and no message or stack', async () => {
    const exporter = new InMemorySpanExporter();
    const tracing = startTracing({ service: 'test', processor: new SimpleSpanProcessor(exporter) });
    try {
      const err = ApplicationFailure.create({
        type: 'ProviderError',
        message: 'refused SSN 123-45-6789 of ada@example.org',
      });
      const span = tracing.tracer.startSpan('RunActivity:submitProfileValue');
      // As @temporalio/interceptors-opentelemetry records a failure.
      span.setStatus({ code: SpanStatusCode.ERROR, message: err.message });
      span.recordException(err);
      span.end();
      const [activity] = exporter.getFinishedSpans();
      // A workflow's span reaches the processor as a plain object, through the workflow exporter's sink.
      const workflowSpan = {
        spanContext: () => span.spanContext(),
        resource: tracing.resource,
        attributes: {},
        name: 'RunWorkflow:kycWorkflow',
        status: { code: SpanStatusCode.ERROR, message: 'Augusta Ada King was refused' },
        events: [],
      };
      exporter.reset();
      tracing.processor.onEnd(workflowSpan as never);

      const [workflow] = exporter.getFinishedSpans();
      assert.ok(activity && workflow);
      const text = JSON.stringify([activity.status, activity.events, workflow.status]);
      for (const value of ['123-45-6789', 'ada@example.org', 'refused', 'Augusta', '    at '])
        assert.ok(!text.includes(value), `${value} left the process: ${text}`);
      assert.deepEqual(activity.status, { code: SpanStatusCode.ERROR, message: 'ApplicationFailure' });
      const exception = activity.events.find((e) => e.name === 'exception')!;
      assert.equal(exception.attributes?.['exception.type'], 'ApplicationFailure');
      assert.equal(exception.attributes?.['exception.message'], undefined);
      assert.equal(exception.attributes?.['exception.stacktrace'], undefined);
      assert.equal(workflow.status.code, SpanStatusCode.ERROR, 'still marked as failed');
      assert.equal(activity.name, 'RunActivity:submitProfileValue', 'the rest of the span is as it was');
    } finally {
      await tracing.shutdown();
      trace.disable();
    }
  });
});
