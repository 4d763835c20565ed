import { trace, type Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { Resource } from '@opentelemetry/resources';
import { BatchSpanProcessor, NoopSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
} from '@temporalio/interceptors-opentelemetry/lib/worker/index.js';
import type { WorkerOptions } from '@temporalio/worker';
import { PrivateSpanProcessor } from './private-spans.js';
import { TRACER_NAME, tracerRegistered } from './spans.js';

// One trace per callback and per backend call, across processes, linked by Temporal's OpenTelemetry
// interceptors (in workflows, workflows/tracing-interceptors.ts). Spans hold names, ids and an
// error's type, never a payload, a personal value, a secret or an error's text (./private-spans.ts).

export interface Tracing {
  /** Whether spans leave the process (OTEL_EXPORTER_OTLP_ENDPOINT set, or a processor given). */
  enabled: boolean;
  resource: Resource;
  processor: SpanProcessor;
  tracer: Tracer;
  shutdown(): Promise<void>;
}

/** Starts tracing: spans batched to the OTLP endpoint when set, or to `processor` (tests); else all no-ops. */
export function startTracing(opts: { service: string; otlpEndpoint?: string; processor?: SpanProcessor }): Tracing {
  const resource = new Resource({ 'service.name': `payflows-${opts.service}` });
  const exporting = opts.processor ?? (opts.otlpEndpoint ? new BatchSpanProcessor(new OTLPTraceExporter()) : undefined);
  if (!exporting) {
    return {
      enabled: false,
      resource,
      processor: new NoopSpanProcessor(),
      tracer: trace.getTracer(TRACER_NAME),
      shutdown: async () => {},
    };
  }
  // Every span, the workflows' too (workerTracingOptions), leaves without an error's message or stack.
  const processor = new PrivateSpanProcessor(exporting);
  const provider = new NodeTracerProvider({ resource, spanProcessors: [processor] });
  provider.register();
  tracerRegistered();
  return {
    enabled: true,
    resource,
    processor,
    tracer: trace.getTracer(TRACER_NAME),
    shutdown: () => provider.shutdown(),
  };
}

/** Sinks for a replay, so that the bundled interceptors find theirs: spans built again are dropped. */
export function replaySinks(): NonNullable<WorkerOptions['sinks']> {
  return {
    exporter: makeWorkflowExporter(new NoopSpanProcessor(), new Resource({ 'service.name': 'payflows-replay' })),
  };
}

/** Worker options that trace activities and export the workflows' spans (which travel by sink). */
export function workerTracingOptions(tracing: Tracing): Pick<WorkerOptions, 'sinks'> & {
  activityInterceptors: NonNullable<NonNullable<WorkerOptions['interceptors']>['activity']>;
} {
  return {
    sinks: { exporter: makeWorkflowExporter(tracing.processor, tracing.resource) },
    activityInterceptors: [
      (ctx) => ({
        inbound: new OpenTelemetryActivityInboundInterceptor(ctx),
        outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
      }),
    ],
  };
}
