import { Counter, Histogram, type Registry } from 'prom-client';
import { processRegistry } from './metrics-endpoint.js';

// The codec server's metrics, served on its operations port (CODEC_SERVER_OPS_PORT). Labels are
// bounded sets, the route and what became of the request: never a path, header, id or payload.

/** Refused before a route's handler runs (the codec server's onRequest hook), on any route. */
const REFUSED = ['unauthenticated', 'forbidden', 'wrong_namespace'] as const;
/** What any route may answer besides its own: a CORS preflight, no such method, a failure. */
const ANY = ['preflight', 'not_found', 'failed'] as const;

/** Each route's outcomes; a path the codec server does not serve is `other`. */
export const CODEC_SERVER_OUTCOMES = {
  '/decode': ['decoded', 'malformed', 'too_large', 'undecodable', ...REFUSED, ...ANY],
  '/encode': ['encoded', 'malformed', 'too_large', 'undecodable', ...REFUSED, ...ANY],
  // The sign-in page, and the form's answer: signed in, or not the token.
  '/session': ['page', 'signed_in', 'wrong_token', 'forbidden', ...ANY],
  '/claims': ['stored', 'malformed', 'too_large', 'unavailable', ...REFUSED, ...ANY],
  other: [...REFUSED, ...ANY],
} as const;
export type CodecServerRoute = keyof typeof CODEC_SERVER_OUTCOMES;
export type CodecServerOutcome = (typeof CODEC_SERVER_OUTCOMES)[CodecServerRoute][number];

export interface CodecServerMetrics {
  registry: Registry;
  /** Counts one request by route and outcome, and its duration in seconds. */
  request(route: CodecServerRoute, outcome: CodecServerOutcome, seconds: number): void;
}

export function createCodecServerMetrics(): CodecServerMetrics {
  const registry = processRegistry('payflows_codec_server_');
  const requests = new Counter({
    name: 'payflows_codec_server_requests_total',
    help: 'Requests to the codec server, by route and outcome',
    labelNames: ['route', 'outcome'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'payflows_codec_server_request_seconds',
    help: 'Time the codec server took to answer a request, by route',
    labelNames: ['route'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
    registers: [registry],
  });
  // Every series is exported from the start, so that rate() and alerts see a zero, not a gap.
  for (const [route, outcomes] of Object.entries(CODEC_SERVER_OUTCOMES)) {
    for (const outcome of outcomes) requests.inc({ route, outcome }, 0);
    duration.zero({ route });
  }
  return {
    registry,
    request: (route, outcome, seconds) => {
      requests.inc({ route, outcome });
      duration.observe({ route }, seconds);
    },
  };
}
