import type { OpenTelemetrySinks } from '@temporalio/interceptors-opentelemetry/lib/workflow/definitions.js';
import {
  ApplicationFailure,
  ContinueAsNew,
  defaultPayloadConverter,
  type Headers,
  proxySinks,
  getRandomStream,
  workflowInfo,
  type WorkflowInterceptorsFactory,
} from '@temporalio/workflow';
import {
  childContext,
  failedEnd,
  flagsHex,
  finishedSpan,
  fromCarrier,
  hex,
  isSampled,
  type SpanEnd,
  STATUS,
  toCarrier,
  TRACE_HEADER,
  type TraceContext,
} from './lib/trace-context.js';
import { activeTrace, withTrace } from './lib/trace-scope.js';
import { workflowNow } from './lib/workflow-time.js';

// The workflows' spans, bundled when the worker exports traces (worker/create-worker.ts): the same
// spans, names and header as Temporal's OpenTelemetry workflow interceptors, so that the client's
// and activities' interceptors join them into one trace, without @opentelemetry/* in every cached
// workflow (docs/capacity.md). Each outbound call reaches `next` in the same tick: no command
// moves, and histories replay with or without them.

const acceptContinueAsNew = (err: unknown) => err instanceof ContinueAsNew;
/** The attribute Temporal's interceptors give an update's spans. */
const UPDATE_ID = 'temporalUpdateId';

export const interceptors: WorkflowInterceptorsFactory = () => {
  const exporter = proxySinks<OpenTelemetrySinks>().exporter;
  // Span ids from streams of their own, never the workflow's Math.random. What replays draws from
  // one; queries and update validators, which a replay does not run, from another, so that a span
  // still open across an eviction keeps, after the replay, the id its header already carried.
  const replayed = getRandomStream('payflows.trace');
  const liveOnly = getRandomStream('payflows.trace.live');
  const newIds = (stream: 'replayed' | 'live-only') =>
    hex((stream === 'live-only' ? liveOnly : replayed).fill(new Uint8Array(24)));

  const fromHeaders = (headers: Headers): TraceContext | undefined => {
    const payload = headers[TRACE_HEADER];
    if (!payload) return undefined;
    try {
      return fromCarrier(defaultPayloadConverter.fromPayload(payload));
    } catch {
      return undefined; // a header that is not a carrier starts a trace of its own
    }
  };

  const ok = (): SpanEnd => ({ status: { code: STATUS.OK } });
  const failure = (err: unknown, acceptable?: (err: unknown) => boolean): SpanEnd =>
    acceptable?.(err) ? ok() : failedEnd(err, err instanceof ApplicationFailure && err.category === 'BENIGN');

  /** Runs `fn` in a span, child of `parent`; exports the span once `fn` returns or its promise settles. */
  function traced<T>(
    name: string,
    parent: TraceContext | undefined,
    fn: (ctx: TraceContext) => T,
    opts: { acceptable?: (err: unknown) => boolean; live?: boolean; attributes?: Record<string, string> } = {},
  ): T {
    const { acceptable, attributes } = opts;
    const ctx = childContext(parent, newIds(opts.live ? 'live-only' : 'replayed'));
    const startMs = workflowNow();
    const ended = (end: SpanEnd) => {
      if (!isSampled(ctx)) return;
      const span = { name, context: ctx, parentSpanId: parent?.spanId, startMs, endMs: workflowNow(), end, attributes };
      exporter.export([finishedSpan(span)]);
    };
    const failed = (err: unknown) => {
      ended(failure(err, acceptable));
      throw err;
    };
    let value: T;
    try {
      value = withTrace(ctx, () => fn(ctx));
    } catch (err) {
      return failed(err);
    }
    if (!(value instanceof Promise)) {
      ended(ok());
      return value;
    }
    return value.then((settled: unknown) => {
      ended(ok());
      return settled;
    }, failed) as T;
  }

  /** A span for an outbound call, its context carried on in the call's headers. */
  function outbound<I extends { headers: Headers }, T>(
    name: string,
    input: I,
    next: (input: I) => Promise<T>,
    acceptable?: (err: unknown) => boolean,
  ) {
    const header = (ctx: TraceContext) => defaultPayloadConverter.toPayload(toCarrier(ctx));
    const call = (ctx: TraceContext) => next({ ...input, headers: { ...input.headers, [TRACE_HEADER]: header(ctx) } });
    return traced(name, activeTrace(), call, { acceptable });
  }

  /** A handler's parent: the caller's context from its headers, else the code that runs it. */
  const handlerParent = (headers: Headers) => fromHeaders(headers) ?? activeTrace();

  return {
    inbound: [
      {
        execute: (input, next) =>
          traced(`RunWorkflow:${workflowInfo().workflowType}`, fromHeaders(input.headers), () => next(input), {
            acceptable: acceptContinueAsNew,
          }),
        handleSignal: (input, next) =>
          traced(`HandleSignal:${input.signalName}`, handlerParent(input.headers), () => next(input)),
        handleUpdate: (input, next) =>
          traced(`HandleUpdate:${input.name}`, handlerParent(input.headers), () => next(input), {
            attributes: { [UPDATE_ID]: input.updateId },
          }),
        // A validator and a query run live only (a replay skips them): their ids come from the other stream.
        validateUpdate: (input, next) =>
          traced(`ValidateUpdate:${input.name}`, handlerParent(input.headers), () => next(input), {
            live: true,
            attributes: { [UPDATE_ID]: input.updateId },
          }),
        handleQuery: (input, next) =>
          traced(`HandleQuery:${input.queryName}`, handlerParent(input.headers), () => next(input), {
            live: true,
          }),
      },
    ],
    outbound: [
      {
        scheduleActivity: (input, next) => outbound(`StartActivity:${input.activityType}`, input, next),
        scheduleLocalActivity: (input, next) => outbound(`StartActivity:${input.activityType}`, input, next),
        startChildWorkflowExecution: (input, next) => outbound(`StartChildWorkflow:${input.workflowType}`, input, next),
        signalWorkflow: (input, next) => outbound(`SignalWorkflow:${input.signalName}`, input, next),
        continueAsNew: (input, next) =>
          outbound(`ContinueAsNew:${input.options.workflowType}`, input, next, acceptContinueAsNew),
        getLogAttributes: (input, next) => {
          const ctx = activeTrace();
          if (!ctx) return next(input);
          return next({
            trace_id: ctx.traceId,
            span_id: ctx.spanId,
            trace_flags: flagsHex(ctx),
            ...input,
          });
        },
      },
    ],
  };
};
