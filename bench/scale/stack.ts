import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Connection } from '@temporalio/client';
import { loadConfig, SANDBOX_CREDENTIALS } from '../../src/config.js';
import { createIngress } from '../../src/ingress/server.js';
import { createSandbox } from '../../src/sandbox/server.js';
import { clientFor } from '../../src/temporal/connection.js';
import { freePort } from '../../src/temporal/ports.js';
import { ensurePostgres } from '../../scripts/lib/postgres.js';
import { type RunningProcess, startProcess, stopProcess } from '../../scripts/lib/product-processes.js';
import { startTemporalCluster, type TemporalCluster } from '../../scripts/lib/temporal-cluster.js';
import { benchVersioningEnv } from '../versioning.js';

// The scale run's stack: Temporal on PostgreSQL started as `npm run cluster` starts it (the
// server and schemas from deploy/temporal), the sandbox and the ingress in this process (the
// sandbox counts every request it answers: the provider's own count), and the production worker
// (worker/main.ts) as a process of its own, so that its memory is its alone.

export interface ScaleStack {
  client: ReturnType<typeof clientFor>;
  taskQueue: string;
  ingressUrl: string;
  secretKey: string;
  /** Requests the sandbox answered, by method and route. */
  requests: Map<string, number>;
  worker(): RunningProcess;
  /** A fresh worker process (a clean cache and memory for the next size). */
  restartWorker(): Promise<void>;
  /** The worker's resident memory now and at its peak (VmRSS, VmHWM), bytes. */
  workerMemory(): { rss: number; peak: number };
  /** pg_total_relation_size summed over the tables of Temporal's main and visibility databases. */
  databaseBytes(): { main: number; visibility: number };
  postgres: TemporalCluster['postgres'];
  stop(): Promise<void>;
}

export async function startScaleStack(opts: {
  dir: string;
  log: (l: string) => void;
  /** The shortened poll interval the ingress gives a wallet it starts (none here: all are opened). */
  walletPollIntervalMs: number;
  workerMemory: string;
}): Promise<ScaleStack> {
  const { dir, log } = opts;
  const cleanups: Array<() => Promise<unknown>> = [];
  // Once, however many ask (a signal's abort and the run's own finally): a second pass would run
  // the cleanups again while the first still stops PostgreSQL.
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      for (const c of [...cleanups].reverse()) await c().catch((e: unknown) => log(`cleanup: ${String(e)}`));
    })());
  try {
    const temporal = await startTemporalCluster({ dir, log });
    cleanups.push(() => temporal.stop());

    const [apiKey, secretKey] = [SANDBOX_CREDENTIALS.apiKey, `SK-SCALE-${randomUUID()}`];
    const sandbox = createSandbox({ apiKey, secretKey });
    const requests = new Map<string, number>();
    sandbox.app.addHook('onRequest', async (req) => {
      const key = `${req.method} ${req.routeOptions.url ?? 'unknown'}`;
      requests.set(key, (requests.get(key) ?? 0) + 1);
    });
    const sandboxUrl = await sandbox.listen(0);
    cleanups.push(() => sandbox.close());

    const payloadKey = randomBytes(32).toString('base64');
    const taskQueue = `scale-${randomUUID().slice(0, 8)}`;
    const connection = await Connection.connect({ address: temporal.address });
    cleanups.push(() => connection.close());
    const client = clientFor(connection, loadConfig({ PAYLOAD_ENCRYPTION_KEY: payloadKey }));
    const ingress = createIngress({
      client,
      taskQueue,
      secretKey,
      maxBodyBytes: 64 * 1024,
      walletTimings: { pollIntervalMs: opts.walletPollIntervalMs },
    });
    await ingress.listen({ port: 0, host: '127.0.0.1' });
    cleanups.push(() => ingress.close());
    const addr = ingress.server.address();
    const ingressUrl = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;

    const workerSpec = async () => {
      const cwd = join(dir, 'worker');
      mkdirSync(join(cwd, 'claims'), { recursive: true, mode: 0o700 });
      return {
        name: 'worker',
        command: process.execPath,
        args: ['--import', import.meta.resolve('tsx'), resolve('worker/main.ts')],
        cwd,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: cwd,
          TEMPORAL_ADDRESS: temporal.address,
          TEMPORAL_NAMESPACE: temporal.namespace,
          TEMPORAL_TASK_QUEUE: taskQueue,
          PAYLOAD_ENCRYPTION_KEY: payloadKey,
          LOG_LEVEL: 'info',
          PROVIDER_BASE_URL: sandboxUrl,
          PROVIDER_API_KEY: apiKey,
          PROVIDER_SECRET_KEY: secretKey,
          PROVIDER_ACCOUNT_ID: SANDBOX_CREDENTIALS.accountId,
          INGRESS_PUBLIC_URL: ingressUrl,
          CLAIM_STORE_DIR: join(cwd, 'claims'),
          CLAIM_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
          WORKER_SHUTDOWN_GRACE: '5s',
          // A container's worth: the worker sizes its cache from it, as deployed.
          WORKER_MEMORY: opts.workerMemory,
          WORKER_METRICS_PORT: String(await freePort()),
          ...benchVersioningEnv,
        },
        log: join(dir, 'logs', `worker-${Date.now()}.log`),
        ready: '"msg":"worker polling"',
      };
    };
    let worker = await startProcess(await workerSpec());
    cleanups.push(() => stopProcess(worker));

    const psqlBin = join(ensurePostgres(log), 'psql');
    const dbBytes = (db: string) =>
      Number(
        execFileSync(
          psqlBin,
          [
            '-h',
            temporal.postgres.host,
            '-p',
            String(temporal.postgres.port),
            '-U',
            'postgres',
            '-d',
            db,
            '-qAt',
            '-c',
            "select coalesce(sum(pg_total_relation_size(c.oid)), 0) from pg_class c join pg_namespace n on n.oid = c.relnamespace where c.relkind = 'r' and n.nspname = 'public'",
          ],
          { encoding: 'utf8' },
        ).trim(),
      );

    return {
      client,
      taskQueue,
      ingressUrl,
      secretKey,
      requests,
      postgres: temporal.postgres,
      worker: () => worker,
      async restartWorker() {
        await stopProcess(worker);
        worker = await startProcess(await workerSpec());
      },
      workerMemory() {
        const status = readFileSync(`/proc/${worker.child.pid}/status`, 'utf8');
        const kb = (field: string) =>
          Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
        return { rss: kb('VmRSS'), peak: kb('VmHWM') };
      },
      databaseBytes: () => ({ main: dbBytes('temporal'), visibility: dbBytes('temporal_visibility') }),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
