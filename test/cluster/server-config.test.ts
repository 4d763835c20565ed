import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { eventually } from '../helpers/stack.js';
import {
  type ClusterDescription,
  clusterClient,
  clusterDescription,
  killTemporalService,
  restartPostgres,
  startTemporalService,
  TEMPORAL_PROCESSES,
  temporalServices,
} from '../helpers/cluster.js';
import { ensurePostgres } from '../../scripts/lib/postgres.js';

// The server's settings that can never change once a cluster has started, as the running cluster
// reports them: what `npm run cluster` and compose start is what production keeps for good. Its
// services as separate processes behind the load balancer, and the controls the fault test uses
// (test/helpers/cluster.ts): a process killed and started again comes back with a new pid on its
// ports, and the cluster keeps answering through the load balancer; a bad name or a second start
// is refused and changes nothing.

/** A run of a type no worker polls, started and ended: the frontend, a history shard and matching answer. */
async function answers(client: Client): Promise<void> {
  const handle = await client.workflow.start('noSuchWorkflow', {
    taskQueue: `services-${randomUUID()}`,
    workflowId: `services-${randomUUID()}`,
  });
  assert.equal((await handle.describe()).status.name, 'RUNNING');
  await handle.terminate('test done');
}

const pidOf = async (c: ClusterDescription, name: string) =>
  (await temporalServices(c)).find((s) => s.name === name)!.pid;

describe('the Temporal server as configured for production', () => {
  let cluster: ClusterDescription;
  let client: Client;
  before(async () => {
    cluster = clusterDescription();
    client = await clusterClient(cluster);
  });
  after(() => client?.connection.close());

  it('runs 512 history shards, the count deploy/temporal/production.yaml gives it', async () => {
    const info = await client.workflowService.getClusterInfo({});
    assert.equal(info.historyShardCount, 512);
    assert.match(
      readFileSync('deploy/temporal/production.yaml', 'utf8'),
      /numHistoryShards: \{\{ env "NUM_HISTORY_SHARDS" \| default "512" \}\}/,
    );
  });

  it('runs two frontends, two history, two matching, one worker and one internal frontend process, and clients reach the load balancer', async () => {
    const { temporal } = cluster;
    assert.equal(temporal.topology, 'services');
    assert.deepEqual(temporal.services.map((s) => s.name).sort(), TEMPORAL_PROCESSES);
    assert.equal(temporal.address, temporal.loadBalancer?.address, 'clients are given the load balancer');
    const now = await temporalServices(cluster);
    for (const s of now) {
      assert.ok(s.pid, `${s.name} runs`);
      assert.match(readFileSync(`/proc/${s.pid}/cmdline`, 'utf8'), new RegExp(`start\0--service=${s.service}\0`));
    }
    assert.equal(
      new Set(now.flatMap((s) => [s.grpcPort, s.membershipPort])).size,
      now.length * 2,
      'ports of their own',
    );
    await answers(client);
  });

  it('a killed process is started again with a new pid, and the cluster answers meanwhile and after', async () => {
    for (const name of ['matching-2', 'frontend-1', 'history-2']) {
      const was = await pidOf(cluster, name);
      const killed = await killTemporalService(cluster, name);
      assert.equal(killed.pid, null, `${name} is down`);
      assert.throws(() => process.kill(was!, 0), /ESRCH/, `${name}'s process ${was} is gone`);
      // The other frontend, history or matching process takes over (history's shards move).
      await eventually(() => answers(client), 60_000, 1_000);
      const started = await startTemporalService(cluster, name);
      assert.ok(started.pid && started.pid !== was, `${name} runs again as a new process`);
      await eventually(() => answers(client), 60_000, 1_000);
    }
  });

  it('refuses a name it does not know, a start of a running process and a call without the token, changing nothing', async () => {
    const pids = (await temporalServices(cluster)).map((s) => s.pid);
    await assert.rejects(
      killTemporalService(cluster, 'history-9'),
      /404 no Temporal service named history-9; the services are .*history-1.*worker-1/,
    );
    await assert.rejects(
      startTemporalService(cluster, 'history-1'),
      /409 Temporal history-1 is running \(pid \d+\); kill it first/,
    );
    const anonymous = await fetch(`${cluster.temporal.control.url}/temporal/history-1/kill`, { method: 'POST' });
    assert.equal(anonymous.status, 401);
    assert.deepEqual(
      (await temporalServices(cluster)).map((s) => s.pid),
      pids,
    );
  });

  it('PostgreSQL restarts on its data and port, and the cluster answers again', async () => {
    await restartPostgres(cluster);
    await eventually(() => answers(client), 60_000, 1_000);
    for (const s of await temporalServices(cluster)) assert.ok(s.pid, `${s.name} survived the restart`);
  });

  it('keeps a visibility index entry only for the runs whose column has a value, and Lists still use the index', () => {
    const { host, port, user, password } = cluster.temporal.postgres;
    const env = { ...process.env, PGPASSWORD: password };
    const psql = join(
      ensurePostgres(() => {}),
      'psql',
    );
    const sql = (query: string) =>
      execFileSync(
        psql,
        ['-X', '-qAt', '-h', host, '-p', String(port), '-U', user, '-d', cluster.temporal.databases.visibility],
        { input: query, env, encoding: 'utf8' },
      ).trim();
    const partialIndexes = () =>
      sql(
        `select c.relname, c.oid from pg_index i join pg_class c on c.oid = i.indexrelid
         where i.indrelid = 'executions_visibility'::regclass and i.indpred is not null order by c.relname`,
      ).split('\n');
    const listed = [...readFileSync('deploy/temporal/visibility-indexes.sql', 'utf8').matchAll(/'(by_\w+)'/g)]
      .map((m) => m[1]!)
      .sort();
    const before = partialIndexes();
    assert.deepEqual(
      before.map((row) => row.split('|')[0]),
      listed,
      'exactly the listed indexes are partial: every one exists in the schema',
    );
    assert.equal(listed.length, 40);
    for (const whole of ['default_idx', 'by_workflow_id', 'by_status', 'by_temporal_namespace_division'])
      assert.ok(!listed.includes(whole), `${whole} stays whole`);

    // A List by a search attribute compares it, which implies a value: the planner still takes its index.
    const plan = sql(`set enable_seqscan = off;
      explain select run_id from executions_visibility
      where namespace_id = 'n' and keyword01 = 'WA_1' and temporalnamespacedivision is null`);
    assert.match(plan, /by_keyword_01/, plan);

    // Run again (every start runs it): nothing is rebuilt.
    const again = spawnSync('sh', ['deploy/temporal/setup.sh', 'indexes'], {
      env: {
        ...env,
        PATH: `${join(psql, '..')}:${process.env.PATH}`,
        POSTGRES_SEEDS: host,
        DB_PORT: String(port),
        POSTGRES_USER: user,
        POSTGRES_PWD: password,
        VISIBILITY_DBNAME: cluster.temporal.databases.visibility,
      },
      encoding: 'utf8',
    });
    assert.equal(again.status, 0, again.stderr);
    assert.doesNotMatch(again.stderr, /made partial/);
    assert.deepEqual(partialIndexes(), before, 'the same indexes, not rebuilt');
  });
});
