import { readFileSync, realpathSync } from 'node:fs';
import { isIPv6 } from 'node:net';
import { pathToFileURL } from 'node:url';
import { request } from 'undici';

// The image's HEALTHCHECK: asks the container's process for its health, exits 0 or 1. HEALTHCHECK_URL,
// or the /health of the command the container runs (the image's environment holds both ports, so it
// cannot decide): the worker's WORKER_HEALTH_PORT or the ingress's INGRESS_OPS_PORT.

const WORKER = /(^|\/)worker\/main\.[jt]s$/;
const INGRESS = /(^|\/)src\/ingress\/main\.[jt]s$/;

/** Where the health of the process that runs `command` is asked. */
export function healthcheckUrl(command: readonly string[], env: Record<string, string | undefined>): string {
  if (env.HEALTHCHECK_URL) return env.HEALTHCHECK_URL;
  const worker = env.WORKER_HEALTH_PORT
    ? `http://${askedHost(env.WORKER_HEALTH_HOST)}:${env.WORKER_HEALTH_PORT}/health`
    : undefined;
  const ingress = `http://${askedHost(env.INGRESS_OPS_HOST)}:${env.INGRESS_OPS_PORT ?? '4021'}/health`;
  if (command.some((arg) => WORKER.test(arg))) {
    if (!worker) throw new Error('the worker serves no /health: set WORKER_HEALTH_PORT (or HEALTHCHECK_URL)');
    return worker;
  }
  if (command.some((arg) => INGRESS.test(arg))) return ingress;
  // No known command (outside a container, PID 1 is the system's): the environment alone.
  return worker ?? ingress;
}

/** Where a process listening on `host` is asked: that address if bound to one, else loopback. */
function askedHost(host: string | undefined): string {
  const bare = host?.replace(/^\[(.*)\]$/, '$1');
  if (!bare || bare === '0.0.0.0' || bare === '::') return '127.0.0.1';
  return isIPv6(bare) ? `[${bare}]` : bare;
}

/** The command line of the container's first process; empty where it cannot be read. */
function containerCommand(): string[] {
  try {
    return readFileSync('/proc/1/cmdline', 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}

async function check(url: string): Promise<never> {
  try {
    const res = await request(url, { headersTimeout: 3_000, bodyTimeout: 3_000 });
    const body = await res.body.text();
    if (res.statusCode === 200) process.exit(0);
    console.error(`${url}: ${res.statusCode} ${body}`);
  } catch (err) {
    console.error(`${url}: ${(err as Error).message}`);
  }
  process.exit(1);
}

// Run as a script (the HEALTHCHECK); imported, it only lends healthcheckUrl to the tests.
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  let url: string;
  try {
    url = healthcheckUrl(containerCommand(), process.env);
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
  await check(url);
}
