import { INVALID_SPAN_CONTEXT, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

// Spans of the product's own (the ingress request, the provider call), through the OpenTelemetry
// API alone: a no-op until a process registers a tracer provider (src/telemetry/tracing.ts).

export const TRACER_NAME = 'payflows';

let registered = false;

/** Said by startTracing (src/telemetry/tracing.ts) once it registers a tracer provider; spans are no-ops until then. */
export function tracerRegistered(): void {
  registered = true;
}

/** Runs `fn` in a span of its own (a child of the active one); the span records failure and ends. */
export async function inSpan<T>(
  name: string,
  kind: SpanKind,
  attributes: Record<string, string | number>,
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  // Without tracing, the call itself: no context switch, no closures, on the provider's hot path.
  if (!registered) return fn(trace.wrapSpanContext(INVALID_SPAN_CONTEXT));
  return trace.getTracer(TRACER_NAME).startActiveSpan(name, { kind, attributes }, async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      // The error's name only: a message can quote an input.
      span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).name });
      throw err;
    } finally {
      span.end();
    }
  });
}

export { SpanKind };
