import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Client } from '@temporalio/client';
import { SANDBOX_CREDENTIALS } from '../../src/config.js';
import { freePort } from '../../src/temporal/ports.js';
import { ensurePostgres } from '../../scripts/lib/postgres.js';
import { startProcess, stopProcess } from '../../scripts/lib/product-processes.js';
import { startStack, stopStack } from '../../scripts/lib/stack.js';
import { startTemporalCluster } from '../../scripts/lib/temporal-cluster.js';
import { benchVersioningEnv } from '../versioning.js';
import { type TableSize, compactDatabase, tableSizes } from './tables.js';
import type { Topology } from './topology.js';

// The scale run's stack: Temporal on PostgreSQL started as `npm run cluster` starts it (the
// server and schemas from deploy/temporal), in the topology asked for, the sandbox and the ingress
// in this process (the sandbox counts every request it answers: the provider's own count), and the
// production worker (worker/main.ts) as a process of its own, so that its memory is its alone.

export interface ScaleStack {
  topology: Topology;
  client: Client;
  taskQueue: string;
  ingressUrl: string;
  secretKey: string;
  /** Requests the sandbox answered, by method and route. */
  requests: Map<string, number>;
  /** The worker's resident memory now and at its peak (VmRSS, VmHWM), bytes. */
  workerMemory(): { rss: number; peak: number };
  /** The Temporal server's resident memory now, summed over its processes (VmRSS), bytes. */
  temporalMemory(): { rss: number; processes: number };
  /** Each table of Temporal's main and visibility databases, with its indexes (bench/scale/tables.ts). */
  databaseTables(): { main: TableSize[]; visibility: TableSize[] };
  /** Both databases rewritten without dead row versions (VACUUM FULL, bench/scale/tables.ts). */
  compactDatabases(): void;
  stop(): Promise<void>;
}

export async function startScaleStack(opts: {
  dir: string;
  log: (l: string) => void;
  topology: Topology;
  workerMemory: string;
}): Promise<ScaleStack> {
  const { dir, log } = opts;
  const stops: Parameters<typeof stopStack>[0] = [];
  // Once, however many ask (a signal's abort and the run's own finally): a second pass would run
  // the stops again while the first still stops PostgreSQL.
  let stopping: Promise<void> | undefined;
  const stop = () => (stopping ??= stopStack(stops, (e) => log(`cleanup: ${String(e)}`)));
  try {
    const temporal = await startTemporalCluster({ dir, log, topology: opts.topology });
    stops.push(() => temporal.stop());

    const secretKey = `SK-SCALE-${randomUUID()}`;
    const requests = new Map<string, number>();
    const stack = await startStack({
      settings: {
        TEMPORAL_ADDRESS: temporal.address,
        TEMPORAL_NAMESPACE: temporal.namespace,
        TEMPORAL_TASK_QUEUE: `scale-${randomUUID().slice(0, 8)}`,
        PAYLOAD_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        PROVIDER_API_KEY: SANDBOX_CREDENTIALS.apiKey,
        PROVIDER_SECRET_KEY: secretKey,
        PROVIDER_ACCOUNT_ID: SANDBOX_CREDENTIALS.accountId,
        CLAIM_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
        ...benchVersioningEnv,
      },
      ports: 'ephemeral',
      sandbox: { onRequest: (route) => void requests.set(route, (requests.get(route) ?? 0) + 1) },
      ingressOps: 'none',
      codecServer: 'none',
      worker: 'none',
      log,
      stops,
    });

    const cwd = join(dir, 'worker');
    mkdirSync(join(cwd, 'claims'), { recursive: true, mode: 0o700 });
    const worker = await startProcess({
      name: 'worker',
      command: process.execPath,
      args: ['--import', import.meta.resolve('tsx'), resolve('worker/main.ts')],
      cwd,
      // The stack's settings, with the sandbox and the ingress where it started them.
      env: {
        PATH: process.env.PATH ?? '',
        HOME: cwd,
        ...stack.settings,
        LOG_LEVEL: 'info',
        CLAIM_STORE_DIR: join(cwd, 'claims'),
        WORKER_SHUTDOWN_GRACE: '5s',
        // A container's worth: the worker sizes its cache from it, as deployed.
        WORKER_MEMORY: opts.workerMemory,
        WORKER_METRICS_PORT: String(await freePort()),
      },
      log: join(dir, 'logs', `worker-${Date.now()}.log`),
      ready: '"msg":"worker polling"',
    });
    stops.push(() => stopProcess(worker));

    const psqlBin = join(ensurePostgres(log), 'psql');
    const { host, port } = temporal.postgres;
    const tablesOf = (database: string) => tableSizes({ bin: psqlBin, host, port, database });

    return {
      topology: opts.topology,
      client: stack.client,
      taskQueue: stack.config.temporal.taskQueue,
      ingressUrl: stack.ingressUrl,
      secretKey,
      requests,
      workerMemory: () => memoryOf(worker.child.pid),
      temporalMemory() {
        const pids = [...temporal.services().map((s) => s.pid), temporal.loadBalancer?.pid];
        const up = pids.filter((pid) => pid !== null && pid !== undefined);
        return { rss: up.reduce((sum, pid) => sum + memoryOf(pid).rss, 0), processes: up.length };
      },
      databaseTables: () => ({ main: tablesOf('temporal'), visibility: tablesOf('temporal_visibility') }),
      compactDatabases() {
        for (const database of ['temporal', 'temporal_visibility'])
          compactDatabase({ bin: psqlBin, host, port, database });
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** A process's resident memory now and at its peak (VmRSS, VmHWM), bytes. */
function memoryOf(pid: number | undefined): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}
