import type { SerializableSpan } from '@temporalio/interceptors-opentelemetry/lib/workflow/definitions.js';

// W3C trace context as Temporal's OpenTelemetry interceptors carry it, and the finished spans their
// worker-side sink takes: pure, so that workflow code traces without @opentelemetry/* in its bundle
// (every cached workflow instantiates the bundle's modules again, docs/capacity.md). The header and
// span shape are Temporal's (`_tracer-data`; SerializableSpan). W3C baggage is not carried.

/** The header Temporal's interceptors read and write. */
export const TRACE_HEADER = '_tracer-data';
/** The instrumentation name Temporal's workflow interceptors give their spans. */
export const WORKFLOW_TRACER = '@temporalio/interceptor-workflow';

export interface TraceContext {
  traceId: string;
  spanId: string;
  /** Bit 0: sampled. A span whose context is not sampled is carried on but not exported. */
  traceFlags: number;
  traceState?: string;
}

// Version 00 is exactly four fields; a later version may add fields after the flags (W3C Trace
// Context, "versioning of traceparent").
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZEROS = /^0+$/;

/** The context a carrier (`{ traceparent, tracestate? }`) holds; undefined when it holds none that is valid. */
export function fromCarrier(carrier: unknown): TraceContext | undefined {
  if (typeof carrier !== 'object' || carrier === null) return undefined;
  const { traceparent, tracestate } = carrier as Record<string, unknown>;
  if (typeof traceparent !== 'string') return undefined;
  const m = TRACEPARENT.exec(traceparent.trim());
  if (!m) return undefined;
  const [, version, traceId, spanId, flags, rest] = m as unknown as [string, string, string, string, string, string?];
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (ZEROS.test(traceId) || ZEROS.test(spanId)) return undefined;
  return {
    traceId,
    spanId,
    traceFlags: parseInt(flags, 16),
    ...(typeof tracestate === 'string' && tracestate !== '' ? { traceState: tracestate } : {}),
  };
}

/** The carrier for a context, as W3C's propagator writes it. */
export function toCarrier(ctx: TraceContext): Record<string, string> {
  return {
    traceparent: `00-${ctx.traceId}-${ctx.spanId}-${flagsHex(ctx)}`,
    ...(ctx.traceState ? { tracestate: ctx.traceState } : {}),
  };
}

/**
 * A child of `parent` (a new trace, sampled, when there is none), its ids from `hex`: 48 random
 * hex digits or more (from a random stream of the workflow's, seeded by Temporal, so that a replay
 * makes the same ids).
 */
export function childContext(parent: TraceContext | undefined, hex: string): TraceContext {
  if (!/^[0-9a-f]{48,}$/.test(hex)) throw new Error(`childContext needs 48 hex digits, got ${hex.length}`);
  const spanId = ZEROS.test(hex.slice(0, 16)) ? `${hex.slice(0, 15)}1` : hex.slice(0, 16);
  const traceId = ZEROS.test(hex.slice(16, 48)) ? `${hex.slice(16, 47)}1` : hex.slice(16, 48);
  return parent ? { ...parent, spanId } : { traceId, spanId, traceFlags: 1 };
}

/** Bytes as lowercase hex. */
export function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The flags as W3C writes them: two hex digits. */
export const flagsHex = (ctx: TraceContext): string => (ctx.traceFlags & 0xff).toString(16).padStart(2, '0');

export const isSampled = (ctx: TraceContext): boolean => (ctx.traceFlags & 1) === 1;

/** OpenTelemetry's status codes. */
export const STATUS = { UNSET: 0, OK: 1, ERROR: 2 } as const;

export interface SpanEnd {
  status: { code: number; message?: string };
  /** The exception event OpenTelemetry's recordException writes, for a failure. */
  exception?: { type: string; message?: string; stacktrace?: string };
}

/** How a span ends when `fn` threw `err`, as Temporal's interceptors record it. */
export function failedEnd(err: unknown, benign: boolean): SpanEnd {
  const e = err as { name?: unknown; code?: unknown; message?: unknown; stack?: unknown } | null | undefined;
  const message = e != null && typeof e.message === 'string' ? e.message : String(err);
  const type = typeof e?.code === 'string' ? e.code : typeof e?.name === 'string' ? e.name : 'Error';
  return {
    status: { code: benign ? STATUS.UNSET : STATUS.ERROR, message },
    exception: { type, message, ...(typeof e?.stack === 'string' ? { stacktrace: e.stack } : {}) },
  };
}

/** Milliseconds as OpenTelemetry's HrTime: [seconds, nanoseconds]. */
export function hrTime(ms: number): [number, number] {
  const seconds = Math.floor(ms / 1000);
  return [seconds, Math.round((ms - seconds * 1000) * 1e6)];
}

/** A finished span in the shape Temporal's workflow exporter sink takes. */
export function finishedSpan(opts: {
  name: string;
  context: TraceContext;
  parentSpanId: string | undefined;
  startMs: number;
  endMs: number;
  end: SpanEnd;
  attributes?: Record<string, string>;
}): SerializableSpan {
  const { name, context, parentSpanId, startMs, endMs, end } = opts;
  const endTime = hrTime(endMs);
  return {
    name,
    kind: 0, // INTERNAL, as Temporal's workflow spans
    spanContext: { ...context },
    ...(parentSpanId ? { parentSpanId } : {}),
    startTime: hrTime(startMs),
    endTime,
    status: end.status,
    attributes: { ...opts.attributes },
    links: [],
    events: end.exception
      ? [
          {
            name: 'exception',
            time: endTime,
            attributes: {
              'exception.type': end.exception.type,
              ...(end.exception.message !== undefined ? { 'exception.message': end.exception.message } : {}),
              ...(end.exception.stacktrace !== undefined ? { 'exception.stacktrace': end.exception.stacktrace } : {}),
            },
          },
        ]
      : [],
    duration: hrTime(Math.max(0, endMs - startMs)),
    ended: true,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
    instrumentationLibrary: { name: WORKFLOW_TRACER },
  };
}
