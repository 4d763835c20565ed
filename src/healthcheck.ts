import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { request } from 'undici';

// The image's HEALTHCHECK: asks the process in the same container for its health and exits 0 or
// 1. HEALTHCHECK_URL says where; by default the worker's (WORKER_HEALTH_PORT), else the
// ingress's (INGRESS_PORT) /health.

/** Where the health of the process is asked. */
export function healthcheckUrl(env: Record<string, string | undefined>): string {
  return env.HEALTHCHECK_URL ?? (env.WORKER_HEALTH_PORT ? `http://127.0.0.1:${env.WORKER_HEALTH_PORT}/health` : `http://127.0.0.1:${env.INGRESS_PORT ?? '4020'}/health`);
}

async function check(url: string): Promise<never> {
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
}

// Run as a script (the HEALTHCHECK); imported, it only lends healthcheckUrl to the tests.
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) await check(healthcheckUrl(process.env));
