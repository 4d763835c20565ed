import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Connection } from '@temporalio/client';
import { WalletsClient } from '../../workflows/wallet/client.js';
import { loadConfig } from '../../src/config.js';
import { connectClient } from '../../src/temporal/connection.js';
import { type RunningProcess, startProcess, stopProcess } from '../../scripts/lib/product-processes.js';
import { startTemporalCluster, type TemporalCluster } from '../../scripts/lib/temporal-cluster.js';
import { clientTlsEnv, makeCertificates } from '../../scripts/lib/tls.js';
import { type ClusterDescription, clusterDescription } from '../helpers/cluster.js';

// A second Temporal server, on its own ports and databases (the same PostgreSQL), started from
// the same deploy/temporal/production.yaml with mTLS on its frontend and client authentication
// required. The worker and a client connect with certificates configured the way Temporal's SDKs
// read them (TEMPORAL_TLS_*); a client without one is refused.

describe('Temporal with mTLS', () => {
  let cluster: ClusterDescription;
  let secured: TemporalCluster;
  let certs: ReturnType<typeof makeCertificates>;
  let worker: RunningProcess | undefined;
  // The second server's data and logs, and the worker's home (its compiler cache, 30 MB a run).
  const dirs: string[] = [];
  before(async () => {
    cluster = clusterDescription();
    const dir = mkdtempSync(join(tmpdir(), 'payflows-mtls-'));
    dirs.push(dir);
    certs = makeCertificates(join(dir, 'certs'));
    const pg = cluster.temporal.postgres;
    secured = await startTemporalCluster({
      dir,
      log: () => {},
      postgres: { ...pg, stop: async () => {} },
      databases: { main: 'temporal_mtls', visibility: 'temporal_mtls_visibility' },
      tls: certs,
    });
  });
  after(async () => {
    if (worker) await stopProcess(worker);
    await secured?.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('a worker and a client with certificates run a process; a client without one is refused', async () => {
    const taskQueue = `mtls-${randomUUID()}`;
    const tlsEnv = clientTlsEnv(certs, certs.workerCert, certs.workerKey);
    // Certificates alone: the suite's cluster's service token is not this server's business.
    const certificatesOnly = Object.fromEntries(
      Object.entries(cluster.workerEnv).filter(([name]) => !name.startsWith('TEMPORAL_OAUTH_')),
    );
    const env = { ...certificatesOnly, ...tlsEnv, TEMPORAL_ADDRESS: secured.address, TEMPORAL_TASK_QUEUE: taskQueue };
    const dir = mkdtempSync(join(tmpdir(), 'payflows-mtls-worker-'));
    dirs.push(dir);
    worker = await startProcess({
      name: 'mtls-worker',
      command: process.execPath,
      args: ['--import', import.meta.resolve('tsx'), join(process.cwd(), 'worker/main.ts')],
      cwd: dir,
      env: { ...env, PATH: process.env.PATH ?? '', HOME: dir },
      log: join(dir, 'worker.log'),
      ready: '"msg":"worker polling"',
    });

    const config = loadConfig({
      TEMPORAL_ADDRESS: secured.address,
      ...tlsEnv,
      PAYLOAD_ENCRYPTION_KEY: cluster.payloadKey,
    });
    assert.ok(config.temporal.connection.tls, 'TLS from the TEMPORAL_TLS_* variables');
    const client = await connectClient(config);
    try {
      const wallets = new WalletsClient(client, { taskQueue, pollIntervalMs: 3_600_000 });
      const { walletId, walletWorkflowId: workflowId } = await wallets.open({
        name: `mtls-${randomUUID().slice(0, 8)}`,
      });
      assert.match(walletId, /^WA/);
      await client.workflow.getHandle(workflowId).terminate('test done');
    } finally {
      await client.connection.close();
    }

    // No certificate at all, or the server's CA alone: the handshake is refused.
    await assert.rejects(
      Connection.connect({ address: secured.address, connectTimeout: 5_000 }).then((c) =>
        c.workflowService.getSystemInfo({}),
      ),
    );
    await assert.rejects(
      Connection.connect({
        address: secured.address,
        connectTimeout: 5_000,
        tls: { serverNameOverride: 'localhost', serverRootCACertificate: readFileSync(certs.caCert) },
      }).then((c) => c.workflowService.getSystemInfo({})),
    );
  });
});
