import { readFileSync } from 'node:fs';
import { Client, Connection } from '@temporalio/client';
import { loadConfig, SANDBOX_CREDENTIALS } from '../../src/config.js';
import { ProviderClient } from '../../src/provider/client.js';
import { clientFor } from '../../src/temporal/connection.js';
import type { ProcessSpec, ProductCluster } from '../../scripts/lib/product-processes.js';
import type { describeTemporal, TemporalService } from '../../scripts/lib/temporal-cluster.js';

// The cluster that `npm run test:cluster` started, as its tests see it (TEST_CLUSTER), and the
// controls that take one of its Temporal processes down or PostgreSQL through a restart
// (scripts/lib/temporal-control.ts, served by the process that started the cluster).

/** What scripts/test-cluster.ts writes: the product's processes as started, and the Temporal server. */
export type ClusterDescription = Omit<ProductCluster, 'processes' | 'stop'> & {
  temporal: ReturnType<typeof describeTemporal>;
  processes: Array<ProcessSpec & { pid: number }>;
};

export function clusterDescription(): ClusterDescription {
  const file = process.env.TEST_CLUSTER;
  if (!file)
    throw new Error('TEST_CLUSTER is unset: run these tests with `npm run test:cluster`, which starts the cluster');
  return JSON.parse(readFileSync(file, 'utf8')) as ClusterDescription;
}

/** A client of the cluster with its payload key, as a backend would connect. */
export async function clusterClient(c: ClusterDescription): Promise<Client> {
  const connection = await Connection.connect({ address: c.temporal.address });
  return clientFor(
    connection,
    loadConfig({
      TEMPORAL_ADDRESS: c.temporal.address,
      TEMPORAL_NAMESPACE: c.temporal.namespace,
      PAYLOAD_ENCRYPTION_KEY: c.payloadKey,
    }),
  );
}

/** The settings a backend's clients are given for the cluster (connectClients' env). */
export function clusterClientEnv(c: ClusterDescription, taskQueue = c.taskQueue): Record<string, string> {
  return {
    TEMPORAL_ADDRESS: c.temporal.address,
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
