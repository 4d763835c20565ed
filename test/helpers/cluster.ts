import { readFileSync } from 'node:fs';
import { Client, Connection } from '@temporalio/client';
import { loadConfig, SANDBOX_CREDENTIALS } from '../../src/config.js';
import { ProviderClient } from '../../src/provider/client.js';
import { clientFor } from '../../src/temporal/connection.js';
import type { ProcessSpec, ProductCluster } from '../../scripts/lib/product-processes.js';

// The cluster that `npm run test:cluster` started, as its tests see it (TEST_CLUSTER).

/** What scripts/test-cluster.ts writes: the product's processes as started, and the Temporal server. */
export type ClusterDescription = Omit<ProductCluster, 'processes' | 'stop'> & {
  temporal: {
    address: string;
    namespace: string;
    metrics: string;
    postgres: { host: string; port: number; user: string; password: string; dataDir: string };
  };
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
