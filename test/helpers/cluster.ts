import { readFileSync } from 'node:fs';
import type { Client } from '@temporalio/client';
import { loadConfig, SANDBOX_CREDENTIALS } from '../../src/config.js';
import { ProviderClient } from '../../src/provider/client.js';
import { connectClient } from '../../src/temporal/connection.js';
import { fetchToken } from '../../src/temporal/service-token.js';
import type { ProcessSpec, ProductCluster } from '../../scripts/lib/product-processes.js';
import { temporalServiceEnv } from '../../scripts/lib/sign-in.js';
import { userToken } from './sign-in.js';
import type { describeTemporal, TemporalService } from '../../scripts/lib/temporal-cluster.js';

// The cluster that `npm run test:cluster` started, as its tests see it (TEST_CLUSTER), and the
// controls that take one of its Temporal processes down or PostgreSQL through a restart
// (scripts/lib/temporal-control.ts, served by the process that started the cluster).

/** What scripts/test-cluster.ts writes: the product's processes as started, and the Temporal server. */
export type ClusterDescription = Omit<ProductCluster, 'processes' | 'stop'> & {
  temporal: ReturnType<typeof describeTemporal>;
  processes: Array<ProcessSpec & { pid: number }>;
};

/**
 * The Temporal server's processes in the cluster, by name, sorted: two frontends, two history, two
 * matching, one worker, and the internal frontend that the server's system worker calls, since the
 * cluster authorizes.
 */
export const TEMPORAL_PROCESSES = [
  'frontend-1',
  'frontend-2',
  'history-1',
  'history-2',
  'internal-frontend-1',
  'matching-1',
  'matching-2',
  'worker-1',
];

export function clusterDescription(): ClusterDescription {
  const file = process.env.TEST_CLUSTER;
  if (!file)
    throw new Error('TEST_CLUSTER is unset: run these tests with `npm run test:cluster`, which starts the cluster');
  return JSON.parse(readFileSync(file, 'utf8')) as ClusterDescription;
}

/**
 * The tests' own client of the cluster, with its payload key, over TLS as an administrator (the
 * stand-in's admin client): it also ends what the tests started, which a service's writer role may not.
 */
export async function clusterClient(c: ClusterDescription): Promise<Client> {
  return connectClient(
    loadConfig({
      TEMPORAL_ADDRESS: c.temporal.address,
      ...temporalServiceEnv(c.temporal, c.signIn, { as: 'admin' }),
      TEMPORAL_NAMESPACE: c.temporal.namespace,
      PAYLOAD_ENCRYPTION_KEY: c.payloadKey,
    }),
  );
}

/** The TLS options (Temporal's SDK) of a connection made by hand to the cluster's frontends. */
export function clusterTls(c: ClusterDescription) {
  const { tls } = loadConfig({ TEMPORAL_ADDRESS: c.temporal.address, ...temporalServiceEnv(c.temporal, c.signIn) })
    .temporal.connection;
  if (!tls) throw new Error("the cluster's description names no TLS for its frontends (temporal.tls)");
  return tls;
}

/**
 * What a backend in another language (examples/go-backend, examples/python-backend) is given for
 * the cluster's Temporal: the frontend's CA and a fresh token of the services' client as
 * TEMPORAL_API_KEY (a short-lived command needs no refresh).
 */
export async function backendTemporalEnv(c: ClusterDescription): Promise<Record<string, string>> {
  const { tokenUrl, services } = c.signIn;
  const { token } = await fetchToken({ tokenUrl, clientId: services.clientId, clientSecret: services.clientSecret });
  const { TEMPORAL_TLS_SERVER_CA_CERT_PATH, TEMPORAL_TLS_SERVER_NAME } = temporalServiceEnv(c.temporal, c.signIn);
  return {
    TEMPORAL_ADDRESS: c.temporal.address,
    TEMPORAL_TLS_SERVER_CA_CERT_PATH: TEMPORAL_TLS_SERVER_CA_CERT_PATH!,
    TEMPORAL_TLS_SERVER_NAME: TEMPORAL_TLS_SERVER_NAME!,
    TEMPORAL_API_KEY: token,
  };
}

/** A token of the cluster's test user `username`, signed in on the provider's login page as the Web UI's client. */
export function clusterUserToken(c: ClusterDescription, username: string): Promise<string> {
  const { signIn } = c;
  const user = signIn.users.find((u) => u.username === username);
  if (!user) throw new Error(`the cluster's provider has no user ${username}`);
  const client = {
    clientId: signIn.ui.clientId,
    clientSecret: signIn.ui.clientSecret,
    redirectUri: signIn.ui.callbackUrl,
  };
  return userToken(signIn, client, user);
}

/** The settings a backend's clients are given for the cluster (connectClients' env): TLS and the services' client credentials included. */
export function clusterClientEnv(c: ClusterDescription, taskQueue = c.taskQueue): Record<string, string> {
  return {
    TEMPORAL_ADDRESS: c.temporal.address,
    ...temporalServiceEnv(c.temporal, c.signIn),
    TEMPORAL_NAMESPACE: c.temporal.namespace,
    TEMPORAL_TASK_QUEUE: taskQueue,
    PAYLOAD_ENCRYPTION_KEY: c.payloadKey,
    CLAIM_STORE_DIR: c.claimsDir,
    CLAIM_ENCRYPTION_KEY: c.claimKey,
  };
}

/** A provider client of the cluster's sandbox, with the sandbox's own credentials. */
export function clusterProvider(c: ClusterDescription): ProviderClient {
  return new ProviderClient({
    baseUrl: c.sandboxUrl,
    auth: { kind: 'signature', apiKey: SANDBOX_CREDENTIALS.apiKey, secretKey: SANDBOX_CREDENTIALS.secretKey },
  });
}

/** A call to the cluster's control endpoint; a refusal throws with the endpoint's message. */
async function control<T>(c: ClusterDescription, method: 'GET' | 'POST', path: string): Promise<T> {
  const res = await fetch(`${c.temporal.control.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${c.temporal.control.token}` },
  });
  const body = (await res.json()) as T & { error?: string };
  if (!res.ok) throw new Error(`${method} ${path} on the cluster's control endpoint: ${res.status} ${body.error}`);
  return body;
}

/** The Temporal server's processes as they are now (pid null while one is down). */
export const temporalServices = (c: ClusterDescription) => control<TemporalService[]>(c, 'GET', '/temporal');

/** SIGKILL to the Temporal process `name` (`history-1`, `frontend-2`…); resolves once it has exited. */
export const killTemporalService = (c: ClusterDescription, name: string) =>
  control<TemporalService>(c, 'POST', `/temporal/${name}/kill`);

/** Starts the Temporal process `name` again, as it was started; resolves with its new pid once it listens. */
export const startTemporalService = (c: ClusterDescription, name: string) =>
  control<TemporalService>(c, 'POST', `/temporal/${name}/start`);

/** Stops the cluster's PostgreSQL and starts it again on the same data and port. */
export const restartPostgres = (c: ClusterDescription) => control<unknown>(c, 'POST', '/postgres/restart');
