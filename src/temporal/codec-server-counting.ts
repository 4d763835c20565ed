import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  CODEC_SERVER_OUTCOMES,
  type CodecServerMetrics,
  type CodecServerOutcome,
  type CodecServerRoute,
} from '../telemetry/codec-server-metrics.js';

// Every answer of the codec server counted by route and outcome (src/telemetry/codec-server-metrics.ts),
// from its status, or from what the codec server marked where a status alone is ambiguous.

const marks = new WeakMap<FastifyRequest, CodecServerOutcome>();

/** Says what became of `req` where its status does not (a 400 for another namespace is no malformed body). */
export function markOutcome(req: FastifyRequest, outcome: CodecServerOutcome): void {
  marks.set(req, outcome);
}

const routeOf = (url: string): CodecServerRoute => {
  const path = url.split('?')[0]!;
  return path !== 'other' && Object.hasOwn(CODEC_SERVER_OUTCOMES, path) ? (path as CodecServerRoute) : 'other';
};

function outcomeOf(route: CodecServerRoute, method: string, status: number): CodecServerOutcome {
  if (method === 'OPTIONS' && status === 204) return 'preflight';
  if (status < 300 && route === '/decode') return 'decoded';
  if (status < 300 && route === '/encode') return 'encoded';
  if (status < 300 && route === '/claims') return 'stored';
  if (status < 300 && route === '/session') return method === 'POST' ? 'signed_in' : 'page';
  if (status === 400 || status === 415) return 'malformed';
  if (status === 401) return route === '/session' ? 'wrong_token' : 'unauthenticated';
  if (status === 403) return 'forbidden';
  if (status === 404 || status === 405) return 'not_found';
  if (status === 413) return 'too_large';
  if (status === 422) return 'undecodable';
  if (status === 503 && route === '/claims') return 'unavailable';
  return 'failed';
}

/** Counts every request `app` answers into `metrics`, with the time it took. */
export function countRequests(app: FastifyInstance, metrics: CodecServerMetrics): void {
  app.addHook('onResponse', async (req, reply) => {
    const route = routeOf(req.url);
    const outcome = marks.get(req) ?? outcomeOf(route, req.method, reply.statusCode);
    metrics.request(route, outcome, reply.elapsedTime / 1000);
  });
}
