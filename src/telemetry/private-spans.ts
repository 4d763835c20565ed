import type { Context } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace-base';

// Temporal's tracing interceptors put a failure's message and stack on its span; a message can
// quote an input (an SSN), and traces leave in plain text: spans go on with the error's type instead.

const EXCEPTION_TEXT = new Set(['exception.message', 'exception.stacktrace']);

/** The span as `processor` should see it: the same, minus an error's message and stack. */
export function withoutErrorText(span: ReadableSpan): ReadableSpan {
  const exception = span.events.find((e) => e.name === 'exception');
  const type = exception?.attributes?.['exception.type'];
  const hasText =
    span.status.message || span.events.some((e) => Object.keys(e.attributes ?? {}).some((k) => EXCEPTION_TEXT.has(k)));
  if (!hasText) return span;
  const status = {
    code: span.status.code,
    ...(span.status.message ? { message: typeof type === 'string' ? type : 'error' } : {}),
  };
  const events = span.events.map((e) =>
    e.attributes
      ? { ...e, attributes: Object.fromEntries(Object.entries(e.attributes).filter(([k]) => !EXCEPTION_TEXT.has(k))) }
      : e,
  );
  // Everything else (its context, times, attributes) is read through to the span itself.
  return Object.create(span, { status: { value: status }, events: { value: events } }) as ReadableSpan;
}

/** A processor that hands `inner` every span without an error's message or stack. */
export class PrivateSpanProcessor implements SpanProcessor {
  constructor(private readonly inner: SpanProcessor) {}
  onStart(span: Span, context: Context): void {
    this.inner.onStart(span, context);
  }
  onEnd(span: ReadableSpan): void {
    this.inner.onEnd(withoutErrorText(span));
  }
  forceFlush(): Promise<void> {
    return this.inner.forceFlush();
  }
  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }
}
