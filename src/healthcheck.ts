import { request } from 'undici';

// The image's HEALTHCHECK: asks the process in the same container for its health and exits 0 or
// 1. HEALTHCHECK_URL says where; by default the worker's (WORKER_HEALTH_PORT), else the
// ingress's (INGRESS_PORT) /health.
const url = process.env.HEALTHCHECK_URL ?? (process.env.WORKER_HEALTH_PORT ? `http://127.0.0.1:${process.env.WORKER_HEALTH_PORT}/health` : `http://127.0.0.1:${process.env.INGRESS_PORT ?? '4020'}/health`);
try {
  const res = await request(url, { headersTimeout: 3_000, bodyTimeout: 3_000 });
  const body = await res.body.text();
  if (res.statusCode !== 200) {
    console.error(`${url}: ${res.statusCode} ${body}`);
    process.exit(1);
  }
  process.exit(0);
} catch (err) {
  console.error(`${url}: ${(err as Error).message}`);
  process.exit(1);
}
