import type { MetricMeter } from '@temporalio/common';

// The product's metrics from the worker, through the SDK's meter, so that they share its Prometheus
// endpoint (WORKER_METRICS_PORT). Labels are bounded: endpoint names and status classes, never ids.

export interface ProviderCallObservation {
  /** The endpoint's name from src/provider/endpoints.ts, e.g. readWallet. */
  endpoint: string;
  /** The HTTP status, or undefined when no answer came (network failure, timeout). */
  status: number | undefined;
  seconds: number;
}

export function statusClass(status: number | undefined): string {
  if (status === undefined) return 'no_answer';
  return `${Math.floor(status / 100)}xx`;
}

/** An observer for the provider client that counts calls and their latency. */
export function providerCallMetrics(meter: MetricMeter): (call: ProviderCallObservation) => void {
  const calls = meter.createCounter('payflows_provider_calls', 'calls', 'Provider calls by endpoint and status class');
  const latency = meter.createHistogram(
    'payflows_provider_call_seconds',
    'float',
    'seconds',
    'Provider call latency by endpoint',
  );
  return ({ endpoint, status, seconds }) => {
    calls.add(1, { endpoint, status_class: statusClass(status) });
    latency.record(seconds, { endpoint });
  };
}
