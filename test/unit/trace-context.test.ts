import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ROOT_CONTEXT, SpanStatusCode, trace, TraceFlags } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { Resource } from '@opentelemetry/resources';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { makeWorkflowExporter } from '@temporalio/interceptors-opentelemetry/lib/worker/index.js';
import {
  childContext,
  failedEnd,
  finishedSpan,
  flagsHex,
  hex,
  fromCarrier,
  hrTime,
  isSampled,
  STATUS,
  toCarrier,
} from '../../workflows/lib/trace-context.js';

// The workflows' trace context must be the one OpenTelemetry's W3C propagator reads and writes
// (the client's and activities' interceptors use it), and their spans the shape Temporal's
// worker-side sink turns into exported spans.

const w3c = new W3CTraceContextPropagator();
const HEX = 'a'.repeat(16) + 'b'.repeat(32) + 'c'.repeat(16);
const PARENT = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: 1 };

describe('trace context as W3C carries it', () => {
  it('reads what OpenTelemetry writes, and OpenTelemetry reads what it writes', () => {
    const carrier: Record<string, string> = {};
    const otelCtx = trace.setSpanContext(ROOT_CONTEXT, { ...PARENT, traceFlags: TraceFlags.SAMPLED });
    w3c.inject(otelCtx, carrier, { set: (c, k, v) => (c[k] = v) });
    assert.deepEqual(fromCarrier(carrier), PARENT);

    const ours = toCarrier({ ...PARENT, traceFlags: 0, traceState: 'vendor=1' });
    const read = trace.getSpanContext(
      w3c.extract(ROOT_CONTEXT, ours, { get: (c, k) => c[k], keys: (c) => Object.keys(c) }),
    );
    assert.equal(read?.traceId, PARENT.traceId);
    assert.equal(read?.spanId, PARENT.spanId);
    assert.equal(read?.traceFlags, 0);
    assert.equal(read?.traceState?.get('vendor'), '1');
  });

  it('a header that holds no valid context gives none: the workflow starts a trace of its own', () => {
    const bad = [
      undefined,
      null,
      'text',
      {},
      { traceparent: 42 },
      { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7' },
      { traceparent: '00-00000000000000000000000000000000-00f067aa0ba902b7-01' },
      { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01' },
      { traceparent: 'ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' },
      { traceparent: '00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01' },
      { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra' },
    ];
    for (const carrier of bad) assert.equal(fromCarrier(carrier), undefined, JSON.stringify(carrier));
    // A later version may add fields after the flags.
    assert.deepEqual(
      fromCarrier({ traceparent: '01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-more' }),
      PARENT,
    );
  });

  it('a child keeps its parent’s trace, flags and state, with a span id of its own', () => {
    const child = childContext({ ...PARENT, traceFlags: 0, traceState: 'v=1' }, HEX);
    assert.deepEqual(child, { traceId: PARENT.traceId, spanId: 'a'.repeat(16), traceFlags: 0, traceState: 'v=1' });
    assert.equal(isSampled(child), false, 'an unsampled trace stays unsampled');
    const root = childContext(undefined, HEX);
    assert.deepEqual(root, { traceId: 'b'.repeat(32), spanId: 'a'.repeat(16), traceFlags: 1 });
    const zeros = childContext(undefined, '0'.repeat(48));
    assert.ok(!/^0+$/.test(zeros.traceId) && !/^0+$/.test(zeros.spanId), 'an all-zero id is invalid in W3C');
    assert.throws(() => childContext(undefined, 'abc'), /48 hex digits/);
  });
});

describe('finished spans as Temporal’s workflow sink takes them', () => {
  it('the sink turns one into an exported span: names, ids, parent, times, status and exception', () => {
    const exporter = new InMemorySpanExporter();
    const sink = makeWorkflowExporter(exporter, new Resource({ 'service.name': 'test' }));
    const ctx = childContext(PARENT, HEX);
    const err = new TypeError('no such field');
    const span = finishedSpan({
      name: 'RunWorkflow:kycWorkflow',
      context: ctx,
      parentSpanId: PARENT.spanId,
      startMs: 1_700_000_000_250,
      endMs: 1_700_000_001_000,
      end: failedEnd(err, false),
    });
    void sink.export.fn({ workflowId: 'kyc:AC_1' } as never, [span]);
    const [out] = exporter.getFinishedSpans();
    assert.ok(out);
    assert.equal(out.name, 'RunWorkflow:kycWorkflow');
    assert.equal(out.spanContext().traceId, PARENT.traceId);
    assert.equal(out.spanContext().spanId, ctx.spanId);
    assert.equal(out.parentSpanId, PARENT.spanId);
    assert.deepEqual(out.startTime, [1_700_000_000, 250_000_000]);
    assert.deepEqual(out.duration, [0, 750_000_000]);
    assert.deepEqual(out.status, { code: SpanStatusCode.ERROR, message: 'no such field' });
    assert.equal(out.events[0]?.attributes?.['exception.type'], 'TypeError');
    assert.equal(out.attributes.workflowId, 'kyc:AC_1', 'the sink adds the workflow’s info');
  });

  it('ids and flags in hex as W3C writes them', () => {
    assert.equal(hex(new Uint8Array([0, 15, 16, 255])), '000f10ff');
    assert.equal(flagsHex({ ...PARENT, traceFlags: 1 }), '01');
    assert.equal(flagsHex({ ...PARENT, traceFlags: 0x1f }), '1f', 'two digits, not 01f');
  });

  it('a benign failure leaves the status unset; success is OK', () => {
    assert.equal(failedEnd(new Error('x'), true).status.code, STATUS.UNSET);
    assert.equal(failedEnd('a string', false).status.message, 'a string');
    assert.equal(
      failedEnd(Object.assign(new Error('x'), { code: 'ProviderError' }), false).exception?.type,
      'ProviderError',
    );
    assert.deepEqual(hrTime(1_234), [1, 234_000_000]);
  });
});
