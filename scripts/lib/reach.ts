import type { Connection } from '@temporalio/client';
import { request } from 'undici';
import type { ClaimStore } from '../../src/claims/store.js';
import { type Config, temporalAddress } from '../../src/config.js';
import { connectTemporal } from '../../src/temporal/connection.js';

// What a script needs to reach before it starts: Temporal, the sandbox, the claim store. One that
// does not answer ends the script with one line that names it and what to set, not a stack trace
// (nothing in it is a bug), and EX_UNAVAILABLE.

export const EX_UNAVAILABLE = 69;

const CLUSTER = 'against `npm run cluster`, run the line it printed: `set -a; . <dir>/client.env; npm run …`';

export function giveUp(line: string): never {
  process.stderr.write(`${line}\n`);
  process.exit(EX_UNAVAILABLE);
}

/** The first error code in the chain (ECONNREFUSED, ENOTFOUND, EACCES…), or the first line of the message. */
export function brief(err: unknown): string {
  for (let link = err, depth = 0; link && typeof link === 'object' && depth < 8; depth++) {
    const code = (link as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    link = (link as { cause?: unknown }).cause;
  }
  return ((err as Error)?.message ?? String(err)).split('\n')[0]!;
}

/** A connection to the configured Temporal, its namespace checked. */
export async function reachTemporal(config: Config): Promise<Connection> {
  const address = temporalAddress(config);
  let connection: Connection;
  try {
    // With the service's token where client credentials are set (`npm run cluster`'s client.env).
    connection = await connectTemporal(config, 'script', { connectTimeoutMs: 3_000 });
  } catch (err) {
    giveUp(
      `Temporal is not reachable at ${address} (${brief(err)}): start \`npm run dev\`, or set TEMPORAL_ADDRESS; ${CLUSTER}`,
    );
  }
  const { namespace } = config.temporal;
  try {
    await connection.workflowService.describeNamespace({ namespace });
  } catch (err) {
    await connection.close();
    giveUp(`Temporal at ${address} has no namespace ${namespace} (${brief(err)}): set TEMPORAL_NAMESPACE; ${CLUSTER}`);
  }
  return connection;
}

/**
 * The sandbox answers its health route with its own JSON (a server that answers 200 to any path is
 * not it). A provider that PROVIDER_BASE_URL names and that is not the sandbox is refused: `script`
 * drives the sandbox's operator routes, and a real provider would move real money.
 */
export async function reachSandbox(config: Config, script: string): Promise<void> {
  const { baseUrl, usesSandbox } = config.provider;
  let answer: string;
  try {
    const res = await request(`${baseUrl}/sandbox/health`, { headersTimeout: 3_000, bodyTimeout: 3_000 });
    const health = (await res.body.json().catch(() => undefined)) as { status?: unknown } | undefined;
    if (res.statusCode === 200 && health?.status === 'ok') return;
    answer = `GET /sandbox/health answered ${res.statusCode}`;
  } catch (err) {
    answer = brief(err);
  }
  giveUp(
    usesSandbox
      ? `the sandbox is not reachable at ${baseUrl} (${answer}): start \`npm run dev\`, or set SANDBOX_PORT to its port; ${CLUSTER}`
      : `PROVIDER_BASE_URL (${baseUrl}) is not the sandbox (${answer}); ${script} runs against the sandbox only: unset PROVIDER_BASE_URL, or point it at a sandbox`,
  );
}

/** The variables that say where the configured claim store is. */
export function claimStoreSettings(config: Config): string {
  return config.claims.url
    ? `CLAIM_STORE_URL (${config.claims.url}), AWS_ENDPOINT_URL_S3, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY`
    : `CLAIM_STORE_DIR (${config.claims.dir})`;
}

/** The claim store takes a claim and gives it up again: where it is, and its permissions, are right. */
export async function reachClaimStore(store: ClaimStore, config: Config): Promise<void> {
  try {
    await store.delete([await store.put(Buffer.from('reachability check'), 'text/plain')]);
  } catch (err) {
    giveUp(
      `the claim store is not reachable (${brief(err)}): check ${claimStoreSettings(config)}, the same as the workers'; ${CLUSTER}`,
    );
  }
}
