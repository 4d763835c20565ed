import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';
import { gitCommit, resolveBuildId } from '../../worker/build-id.js';
import { versioningSettings, workerVersion } from '../../worker/create-worker.js';
import { describeOutcome } from '../../worker/current-version.js';

// Which version of which Worker Deployment a worker runs as (docs/deploying.md), from its settings.

const none = { built: () => undefined, gitCommit: () => undefined };

describe('the worker version', () => {
  it('is on by default, in the `payflows` deployment, with runs pinned unless a workflow says otherwise', () => {
    const config = loadConfig({ WORKER_BUILD_ID: 'build-7' });
    assert.deepEqual(config.worker.versioning, { enabled: true, deploymentName: 'payflows', buildId: 'build-7' });
    const version = workerVersion(config);
    assert.deepEqual(version, { deploymentName: 'payflows', buildId: 'build-7', source: 'WORKER_BUILD_ID' });
    assert.deepEqual(versioningSettings(version), {
      workerDeploymentOptions: {
        version: { deploymentName: 'payflows', buildId: 'build-7' },
        useWorkerVersioning: true,
        defaultVersioningBehavior: 'PINNED',
      },
    });
  });

  it('is off with WORKER_VERSIONING=off: the worker runs unversioned, as for a server without deployments', () => {
    const config = loadConfig({ WORKER_VERSIONING: 'off' });
    assert.equal(config.worker.versioning.enabled, false);
    assert.equal(workerVersion(config), undefined);
    assert.deepEqual(versioningSettings(undefined), {}, 'no deployment options reach the SDK');
  });

  it('takes the build id from WORKER_BUILD_ID, else the one `npm run build` wrote, else the git commit', () => {
    const finders = { built: () => 'from-build', gitCommit: () => 'abc123def456' };
    assert.deepEqual(resolveBuildId('set', finders), { buildId: 'set', source: 'WORKER_BUILD_ID' });
    assert.deepEqual(resolveBuildId(undefined, finders), { buildId: 'from-build', source: 'build' });
    assert.deepEqual(resolveBuildId(undefined, { ...finders, built: () => undefined }), {
      buildId: 'abc123def456',
      source: 'git',
    });
    // This checkout's own commit, as a worker run from source finds it.
    assert.match(gitCommit() ?? '', /^[0-9a-f]{12}$/);
  });

  it('refuses to start without any build id, saying what to set', () => {
    assert.throws(
      () => resolveBuildId(undefined, none),
      (err: unknown) => {
        assert.ok(err instanceof ConfigError);
        assert.match(err.message, /WORKER_BUILD_ID/);
        assert.match(err.message, /WORKER_VERSIONING=off/);
        return true;
      },
    );
    // Off, no build id is needed.
    assert.equal(workerVersion(loadConfig({ WORKER_VERSIONING: 'off' })), undefined);
  });

  it('refuses names and ids Temporal would not take, naming the variable', () => {
    for (const [name, value] of [
      ['WORKER_VERSIONING', 'yes'],
      ['WORKER_DEPLOYMENT_NAME', 'pay.flows'],
      ['WORKER_DEPLOYMENT_NAME', 'pay:flows'],
      ['WORKER_DEPLOYMENT_NAME', '__payflows'],
      ['WORKER_DEPLOYMENT_NAME', 'x'.repeat(201)],
      ['WORKER_BUILD_ID', 'build 7'],
      ['WORKER_BUILD_ID', '__unversioned__'],
    ] as const) {
      assert.throws(
        () => loadConfig({ [name]: value }),
        (err: unknown) => {
          assert.ok(err instanceof ConfigError);
          assert.match(err.message, new RegExp(`\\n  ${name}: \\S`), `${name}=${value}`);
          return true;
        },
      );
    }
    // What they take: the git commit, an image tag, a pipeline id.
    assert.equal(loadConfig({ WORKER_BUILD_ID: '1.4.2-rc.1+abc' }).worker.versioning.buildId, '1.4.2-rc.1+abc');
    assert.equal(
      loadConfig({ WORKER_DEPLOYMENT_NAME: 'payflows-eu_1' }).worker.versioning.deploymentName,
      'payflows-eu_1',
    );
  });

  it('says at start whether the version gets new runs, and what the operator does when it does not', () => {
    const v = { deploymentName: 'payflows', buildId: 'b2' };
    assert.match(describeOutcome(v, { outcome: 'made-current', previous: undefined }), /first version/);
    assert.match(describeOutcome(v, { outcome: 'left', current: 'b1' }), /b1 is.*ramps or promotes/);
    assert.match(describeOutcome(v, { outcome: 'gave-up', reason: 'x' }), /set-current-version/);
  });
});
