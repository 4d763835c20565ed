import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry/lib/client/index.js';
import type { WorkflowClientInterceptor } from '@temporalio/client';

/**
 * The client interceptor that carries the caller's trace (a backend's request, the ingress's
 * callback) into the workflow it starts, signals or updates; a no-op while no tracer is registered.
 */
export function clientTracingInterceptors(): { workflow: WorkflowClientInterceptor[] } {
  return { workflow: [new OpenTelemetryWorkflowClientInterceptor()] };
}
