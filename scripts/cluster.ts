import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeClientFiles } from './lib/client-env.js';
import { startClusterTopology, topologyRun, writeTopologyFile } from './lib/product-processes.js';
import { temporalServiceEnv } from './lib/sign-in.js';

// `npm run cluster`: the production topology on this machine (lib/product-processes.ts), from the
// same binaries and configuration files as docker-compose.yml: Temporal's services as processes of
// their own behind a load balancer (lib/temporal-cluster.ts), the product's processes around them.
// Everything lives in a temporary folder (printed), PostgreSQL's data included; Ctrl-C or SIGTERM,
// during the start-up too, stops it all and removes the folder.

// After `ready`, a signal stops the whole topology; either way the folder goes with it.
const { say, signal, dir } = topologyRun('cluster');
say(`state and logs in ${dir}`);
let cluster: Awaited<ReturnType<typeof startClusterTopology>> | undefined;
let failure: unknown;
try {
  cluster = await startClusterTopology({ dir, log: say, signal });
} catch (err) {
  // Each start stops what it had started before it rejects.
  if (!signal.aborted) failure = err;
}

if (cluster && !signal.aborted) {
  const { temporal, product } = cluster;
  writeTopologyFile(dir, cluster);
  // Each of the server's processes and the load balancer were listed as they started.
  say(
    `Temporal gRPC      ${temporal.address} (the load balancer in front of the frontends, TLS with this run's CA ${temporal.tls?.caCert}; it authorizes: a token of the identity provider on every call; namespace ${temporal.namespace}; PostgreSQL ${temporal.postgres.host}:${temporal.postgres.port})`,
  );
  const { signIn } = product;
  say(
    `Temporal Web UI    ${product.uiUrl} (sign in at the identity provider; payloads decoded for a role with decode, through the codec server at ${product.codecBrowserUrl}: its certificate is this run's own, accept it once in the browser)`,
  );
  say(
    `identity provider  ${signIn.issuer} (a stand-in: test users ${signIn.users.map((u) => u.username).join(', ')}; their passwords in ${signIn.configFile}, readable by its owner only)`,
  );
  say(`codec server       ${product.codecUrl} (the CLI: --codec-auth "Bearer ${product.codecToken}")`);
  say(`sandbox provider   ${product.sandboxUrl}`);
  say(`ingress replicas   ${product.ingressUrls.join(', ')} (callbacks at /callbacks)`);
  say(`ingress operations ${product.ingressOpsUrls.join(', ')} (/health, /metrics)`);
  say(`worker metrics     ${product.workerMetrics.join(', ')}; health ${product.workerHealth.join(', ')}`);
  say(`Prometheus         ${product.prometheusUrl} (Temporal's own metrics at ${temporal.metrics.join(', ')})`);
  const files = writeClientFiles(dir, {
    temporalAddress: temporal.address,
    temporalAccess: temporalServiceEnv(temporal, product.signIn),
    namespace: temporal.namespace,
    taskQueue: product.taskQueue,
    payloadKey: product.payloadKey,
    claimsDir: product.claimsDir,
    claimKey: product.claimKey,
    sandboxPort: new URL(product.sandboxUrl).port,
    uiPort: new URL(product.uiUrl).port,
  });
  say(`keys               ${files.payloadKey}, ${files.claimKey} (readable by their owner only)`);
  say(
    `backend settings   ${files.clientEnv} (Temporal with its CA and the services' client credentials, the payload key, the claim store and its key, the sandbox)`,
  );
  say(`run the demo       set -a; . ${files.clientEnv}; npm run demo`);
  say('ready');
  await new Promise((r) => signal.addEventListener('abort', r, { once: true }));
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
