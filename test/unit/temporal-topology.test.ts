import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadBalancerEnv } from '../../scripts/lib/load-balancer.js';
import { startTemporalCluster, type TemporalTopology } from '../../scripts/lib/temporal-cluster.js';

// The cluster's topology settings refused before anything starts: a topology that is neither
// 'single' nor 'services', authorization without TLS, and a load balancer given other than the
// two frontends its configuration file names.

describe('the Temporal cluster topology', () => {
  it('refuses a topology it does not know, naming it, before it builds or starts anything', async () => {
    const dir = join(tmpdir(), `payflows-topology-${process.pid}`);
    await assert.rejects(
      startTemporalCluster({ dir, log: () => {}, topology: 'sharded' as TemporalTopology }),
      /startTemporalCluster: topology is 'single' or 'services', not "sharded"/,
    );
    assert.equal(existsSync(dir), false, 'no folder made');
  });

  it('refuses authorization without TLS in either topology, naming tls, before it builds or starts anything', async () => {
    const authorization = { jwksUrl: 'http://127.0.0.1:1/jwks', audience: 'api://payflows', adminToken: 'not-used' };
    for (const topology of ['single', 'services'] as const) {
      const dir = join(tmpdir(), `payflows-topology-${topology}-${process.pid}`);
      await assert.rejects(
        startTemporalCluster({ dir, log: () => {}, topology, authorization }),
        /startTemporalCluster: authorization needs tls \(tokens never travel in clear\); pass tls too/,
      );
      assert.equal(existsSync(dir), false, 'no folder made');
    }
  });

  it("gives HAProxy's configuration its two frontends, and refuses another count", () => {
    assert.deepEqual(loadBalancerEnv({ bind: '127.0.0.1:1', frontends: ['127.0.0.1:2', '127.0.0.1:3'], tls: true }), {
      TEMPORAL_LB_BIND: '127.0.0.1:1',
      TEMPORAL_FRONTEND_1: '127.0.0.1:2',
      TEMPORAL_FRONTEND_2: '127.0.0.1:3',
      TEMPORAL_LB_TLS: 'passthrough',
    });
    assert.throws(
      () => loadBalancerEnv({ bind: '127.0.0.1:1', frontends: ['127.0.0.1:2'], tls: false }),
      /deploy\/haproxy\/haproxy.cfg balances two frontends \(TEMPORAL_FRONTEND_1 and _2\); given 1/,
    );
  });
});
