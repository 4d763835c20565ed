import { Counter, Histogram, type Registry } from 'prom-client';
import { processRegistry } from './metrics-endpoint.js';

// The ingress's own metrics, served at GET /metrics. Labels are bounded sets, never ids.

export const CALLBACK_OUTCOMES = [
  'accepted',
  'bad_signature',
  'malformed',
  'too_large',
  'temporal_unavailable',
] as const;
export type CallbackOutcome = (typeof CALLBACK_OUTCOMES)[number];

export interface IngressMetrics {
  registry: Registry;
  /** Counts one callback by what became of it. */
  callback(outcome: CallbackOutcome): void;
  /** Seconds from the request's arrival to Temporal's acceptance of its signal(s). */
  signalled(seconds: number): void;
}

export function createIngressMetrics(): IngressMetrics {
  const registry = processRegistry('payflows_ingress_');
  const callbacks = new Counter({
    name: 'payflows_callbacks_total',
    help: 'Provider callbacks received by the ingress, by outcome',
    labelNames: ['outcome'],
    registers: [registry],
  });
  // Every outcome is exported from the start, so that rate() and alerts see a zero, not a gap.
  for (const outcome of CALLBACK_OUTCOMES) callbacks.inc({ outcome }, 0);
  const toSignal = new Histogram({
    name: 'payflows_callback_signal_seconds',
    help: 'Time from a callback’s arrival to a durable signal in Temporal',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  return {
    registry,
    callback: (outcome) => callbacks.inc({ outcome }),
    signalled: (seconds) => toSignal.observe(seconds),
  };
}
