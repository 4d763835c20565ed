import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startProduct } from './lib/product-processes.js';
import { startTemporalCluster } from './lib/temporal-cluster.js';

// `npm run cluster`: the production topology on this machine, from the same binaries and
// configuration files as docker-compose.yml: PostgreSQL, the Temporal server (schemas, namespace
// and search attributes by deploy/temporal/setup.sh), then the sandbox, two workers, two ingress
// replicas, the codec server, the Web UI and Prometheus, each a process of its own. Everything
// lives in a temporary folder (printed), PostgreSQL's data included; Ctrl-C stops it all.

const say = (line: string) => console.log(`[cluster] ${line}`);
const dir = mkdtempSync(join(tmpdir(), 'payflows-cluster-'));
say(`state and logs in ${dir}`);
const temporal = await startTemporalCluster({ dir, log: say });
let product: Awaited<ReturnType<typeof startProduct>> | undefined;
try {
  product = await startProduct({ dir, temporalAddress: temporal.address, namespace: temporal.namespace, temporalMetrics: temporal.metrics, log: say });
} catch (err) {
  await temporal.stop();
  throw err;
}
const description = {
  dir,
  temporal: { address: temporal.address, namespace: temporal.namespace, metrics: temporal.metrics, postgres: `${temporal.postgres.host}:${temporal.postgres.port}` },
  sandboxUrl: product.sandboxUrl,
  ingressUrls: product.ingressUrls,
  workerMetrics: product.workerMetrics,
  workerHealth: product.workerHealth,
  codecUrl: product.codecUrl,
  uiUrl: product.uiUrl,
  prometheusUrl: product.prometheusUrl,
  taskQueue: product.taskQueue,
};
writeFileSync(join(dir, 'cluster.json'), JSON.stringify(description, null, 2), { mode: 0o600 });
say(`Temporal gRPC      ${temporal.address} (namespace ${temporal.namespace}; PostgreSQL ${description.temporal.postgres})`);
say(`Temporal Web UI    ${product.uiUrl} (decodes payloads through the codec server ${product.codecUrl}: sign the browser in once at ${product.codecUrl}/session with the token ${product.codecToken})`);
say(`sandbox provider   ${product.sandboxUrl}`);
say(`ingress replicas   ${product.ingressUrls.join(', ')} (callbacks at /callbacks; metrics at /metrics)`);
say(`worker metrics     ${product.workerMetrics.join(', ')}; health ${product.workerHealth.join(', ')}`);
say(`Prometheus         ${product.prometheusUrl} (Temporal's own metrics at ${temporal.metrics})`);
say(`payload key        in ${join(dir, 'payload.key')} (TEMPORAL_ADDRESS=${temporal.address} PAYLOAD_ENCRYPTION_KEY=$(cat …) for npm run demo)`);
writeFileSync(join(dir, 'payload.key'), product.payloadKey, { mode: 0o600 });
say('ready');

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  say('stopping…');
  await product!.stop();
  await temporal.stop();
  say('stopped');
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
