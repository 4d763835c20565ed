import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@temporalio/client';
import { type ClusterDescription, clusterClient, clusterDescription } from '../helpers/cluster.js';

// The server's settings that can never change once a cluster has started, as the running cluster
// reports them: what `npm run cluster` and compose start is what production keeps for good.

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
});
