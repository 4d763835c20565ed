import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { temporal } from '@temporalio/proto';
import { bootstrapCurrentVersion, type BootstrapOptions, UNVERSIONED } from '../../worker/current-version.js';

// When a worker makes its own version current (worker/current-version.ts, docs/deploying.md): only
// for a deployment whose current version was never set, with nothing ramping, no other version
// registered and no unversioned poller; never over an operator's choice. The server is a stand-in
// answering as Temporal 1.29 does, so that every case is decided, including the refusals.

type Service = temporal.api.workflowservice.v1.WorkflowService;
type Routing = temporal.api.deployment.v1.IRoutingConfig;

const V = { deploymentName: 'payflows', buildId: 'v2' };
const when = { nanos: 1 }; // any time: set at all is what counts

interface Server {
  routing: Routing;
  registered: string[];
  pollers?: temporal.api.taskqueue.v1.IPollerInfo[];
  /** Errors the next set calls throw, in order. */
  setErrors?: Array<{ code: number; message: string }>;
}

function fakeService(server: Server) {
  const sets: Array<{ buildId: string; conflictToken: Uint8Array }> = [];
  let token = 0;
  const service = {
    async describeWorkerDeployment() {
      return {
        conflictToken: new Uint8Array([token]),
        workerDeploymentInfo: {
          routingConfig: server.routing,
          versionSummaries: server.registered.map((buildId) => ({
            deploymentVersion: { deploymentName: 'payflows', buildId },
          })),
        },
      };
    },
    async describeTaskQueue() {
      return { pollers: server.pollers ?? [{ identity: 'me', deploymentOptions: { ...V } }] };
    },
    async setWorkerDeploymentCurrentVersion(req: { buildId: string; conflictToken: Uint8Array }) {
      sets.push(req);
      const err = server.setErrors?.shift();
      if (err) {
        token += 1;
        throw Object.assign(new Error(err.message), err);
      }
      server.routing = { currentDeploymentVersion: { ...V }, currentVersionChangedTime: when };
      return {};
    },
  } as unknown as Service;
  return { service, sets };
}

const opts = (extra: Partial<BootstrapOptions> = {}): BootstrapOptions => ({
  namespace: 'default',
  version: V,
  taskQueue: 'payflows',
  bootstrap: true,
  takeOver: false,
  identity: 'test',
  running: () => true,
  timeoutMs: 2_000,
  intervalMs: 1,
  ...extra,
});

describe("a worker making its deployment's first version current", () => {
  it('sets it when no current version was ever set and it is the only version', async () => {
    const { service, sets } = fakeService({ routing: {}, registered: ['v2'] });
    assert.deepEqual(await bootstrapCurrentVersion(service, opts()), { outcome: 'made-current', previous: undefined });
    assert.deepEqual(
      sets.map((s) => s.buildId),
      ['v2'],
    );
  });

  it('waits for the server to register the version before setting it', async () => {
    const server: Server = { routing: {}, registered: [] };
    const { service, sets } = fakeService(server);
    setTimeout(() => server.registered.push('v2'), 20);
    assert.equal((await bootstrapCurrentVersion(service, opts())).outcome, 'made-current');
    assert.equal(sets.length, 1);
  });

  it('does nothing when an operator set the unversioned workers current (`--unversioned`, or never moved off them)', async () => {
    const { service, sets } = fakeService({ routing: { currentVersionChangedTime: when }, registered: ['v2'] });
    const o = await bootstrapCurrentVersion(service, opts());
    assert.deepEqual(o, { outcome: 'left', current: UNVERSIONED, why: 'a current version was set before' });
    assert.equal(sets.length, 0);
  });

  it('does nothing while an operator ramps, from unversioned or to another version', async () => {
    for (const routing of [
      { rampingVersionChangedTime: when, rampingVersionPercentage: 10 },
      { rampingDeploymentVersion: { deploymentName: 'payflows', buildId: 'v3' }, rampingVersionChangedTime: when },
    ]) {
      const { service, sets } = fakeService({ routing, registered: ['v2', 'v3'] });
      const o = await bootstrapCurrentVersion(service, opts());
      assert.equal(o.outcome, 'left');
      assert.match(o.outcome === 'left' ? o.why : '', /ramping/);
      assert.equal(sets.length, 0);
    }
  });

  it('does nothing when another version is registered', async () => {
    const { service, sets } = fakeService({ routing: {}, registered: ['v1', 'v2'] });
    const o = await bootstrapCurrentVersion(service, opts());
    assert.deepEqual(o, { outcome: 'left', current: undefined, why: 'other versions are registered (v1)' });
    assert.equal(sets.length, 0);
  });

  it('does nothing when unversioned workers poll the task queue (a migration: docs/deploying.md)', async () => {
    const pollers = [{ identity: 'me', deploymentOptions: { ...V } }, { identity: 'old@host' }];
    const { service, sets } = fakeService({ routing: {}, registered: ['v2'], pollers });
    const o = await bootstrapCurrentVersion(service, opts());
    assert.equal(o.outcome, 'left');
    assert.match(o.outcome === 'left' ? o.why : '', /unversioned workers poll payflows \(old@host\)/);
    assert.equal(sets.length, 0);
  });

  it('only reports with WORKER_VERSION_BOOTSTRAP off', async () => {
    const { service, sets } = fakeService({ routing: {}, registered: ['v2'] });
    const o = await bootstrapCurrentVersion(service, opts({ bootstrap: false }));
    assert.deepEqual(o, { outcome: 'left', current: undefined, why: 'WORKER_VERSION_BOOTSTRAP is off' });
    assert.equal(sets.length, 0);
  });

  it('says already-current when it is, and takes over only when asked (npm run dev)', async () => {
    const current = {
      currentDeploymentVersion: { deploymentName: 'payflows', buildId: 'v1' },
      currentVersionChangedTime: when,
    };
    const mine = fakeService({ routing: { ...current, currentDeploymentVersion: { ...V } }, registered: ['v1', 'v2'] });
    assert.deepEqual(await bootstrapCurrentVersion(mine.service, opts()), { outcome: 'already-current' });
    const other = fakeService({ routing: current, registered: ['v1', 'v2'] });
    assert.deepEqual(await bootstrapCurrentVersion(other.service, opts()), {
      outcome: 'left',
      current: 'v1',
      why: 'a current version was set before',
    });
    assert.deepEqual(await bootstrapCurrentVersion(other.service, opts({ takeOver: true })), {
      outcome: 'made-current',
      previous: 'v1',
    });
  });

  it('describes again after a conflict (another worker changed the deployment) and sets with the new token', async () => {
    const { service, sets } = fakeService({
      routing: {},
      registered: ['v2'],
      setErrors: [{ code: 9, message: 'conflict token mismatch' }],
    });
    assert.equal((await bootstrapCurrentVersion(service, opts())).outcome, 'made-current');
    assert.deepEqual(
      sets.map((s) => [...s.conflictToken]),
      [[0], [1]],
    );
  });

  it('gives up at the second identical refusal instead of retrying for two minutes', async () => {
    const refusal = { code: 9, message: 'version has no pollers' };
    const { service, sets } = fakeService({ routing: {}, registered: ['v2'], setErrors: [refusal, refusal, refusal] });
    const started = Date.now();
    const o = await bootstrapCurrentVersion(service, opts({ timeoutMs: 120_000 }));
    assert.deepEqual(o, { outcome: 'gave-up', reason: 'version has no pollers' });
    assert.equal(sets.length, 2);
    assert.ok(Date.now() - started < 1_000);
  });
});
