import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeClientFiles } from './lib/client-env.js';
import { startClusterTopology, writeTopologyFile } from './lib/product-processes.js';

// `npm run cluster`: the production topology on this machine, from the same binaries and
// configuration files as docker-compose.yml: PostgreSQL, the Temporal server (schemas, namespace
// and search attributes by deploy/temporal/setup.sh), then the sandbox, two workers, two ingress
// replicas, the codec server, the Web UI and Prometheus, each a process of its own. Everything
// lives in a temporary folder (printed), PostgreSQL's data included; Ctrl-C or SIGTERM, during
// the start-up too, stops it all and removes the folder.

const say = (line: string) => console.log(`[cluster] ${line}`);

// The signal handler comes first: a signal at any point of the start-up (minutes, the first time)
// ends the step under way and stops what has started, in reverse order; after `ready`, it stops
// the whole topology. Either way the folder goes with it.
const abort = new AbortController();
const onSignal = (signal: NodeJS.Signals) => {
  if (abort.signal.aborted) return say(`${signal}: already stopping`);
  say(`${signal}: stopping…`);
  abort.abort(new Error(`stopped by ${signal}`));
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

const dir = mkdtempSync(join(tmpdir(), 'payflows-cluster-'));
say(`state and logs in ${dir}`);
let cluster: Awaited<ReturnType<typeof startClusterTopology>> | undefined;
let failure: unknown;
try {
  cluster = await startClusterTopology({ dir, log: say, signal: abort.signal });
} catch (err) {
  // Each start stops what it had started before it rejects.
  if (!abort.signal.aborted) failure = err;
}

if (cluster && !abort.signal.aborted) {
  const { temporal, product } = cluster;
  writeTopologyFile(dir, cluster);
  say(
    `Temporal gRPC      ${temporal.address} (namespace ${temporal.namespace}; PostgreSQL ${temporal.postgres.host}:${temporal.postgres.port})`,
  );
  say(
    `Temporal Web UI    ${product.uiUrl} (decodes payloads through the codec server ${product.codecUrl}: sign the browser in once at ${product.codecUrl}/session with the token ${product.codecToken})`,
  );
  say(`sandbox provider   ${product.sandboxUrl}`);
  say(`ingress replicas   ${product.ingressUrls.join(', ')} (callbacks at /callbacks)`);
  say(`ingress operations ${product.ingressOpsUrls.join(', ')} (/health, /metrics)`);
  say(`worker metrics     ${product.workerMetrics.join(', ')}; health ${product.workerHealth.join(', ')}`);
  say(`Prometheus         ${product.prometheusUrl} (Temporal's own metrics at ${temporal.metrics})`);
  const files = writeClientFiles(dir, {
    temporalAddress: temporal.address,
    namespace: temporal.namespace,
    taskQueue: product.taskQueue,
    payloadKey: product.payloadKey,
    claimsDir: product.claimsDir,
    claimKey: product.claimKey,
    sandboxPort: new URL(product.sandboxUrl).port,
    uiPort: new URL(product.uiUrl).port,
  });
  say(`keys               ${files.payloadKey}, ${files.claimKey} (readable by their owner only)`);
  say(`backend settings   ${files.clientEnv} (Temporal, the payload key, the claim store and its key, the sandbox)`);
  say(`run the demo       set -a; . ${files.clientEnv}; npm run demo`);
  say('ready');
  await new Promise((r) => abort.signal.addEventListener('abort', r, { once: true }));
}

await cluster?.stop();
if (failure === undefined) {
  rmSync(dir, { recursive: true, force: true });
  say('stopped');
  process.exit(0);
}
// A failed start-up keeps its logs, nothing else (PostgreSQL's data, keys, claims go).
for (const entry of readdirSync(dir)) if (entry !== 'logs') rmSync(join(dir, entry), { recursive: true, force: true });
console.error(`[cluster] could not start: ${(failure as Error).stack ?? String(failure)}`);
say(`logs kept in ${join(dir, 'logs')}`);
process.exit(1);
