import { type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

// Spans of the product's own (the ingress request, the provider call), through the OpenTelemetry
// API alone: a no-op until a process registers a tracer provider (src/telemetry/tracing.ts).

export const TRACER_NAME = 'payflows';

/** Runs `fn` in a span of its own (a child of the active one); the span records failure and ends. */
export async function inSpan<T>(name: string, kind: SpanKind, attributes: Record<string, string | number>, fn: (span: Span) => Promise<T>): Promise<T> {
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
