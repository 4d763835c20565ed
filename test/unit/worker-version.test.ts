import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';
import { checkoutBuildId, resolveBuildId } from '../../worker/build-id.js';
import { versioningSettings, workerVersion } from '../../worker/create-worker.js';
import { describeOutcome } from '../../worker/current-version.js';
import { committedCheckout } from '../helpers/git-checkout.js';

// Which version of which Worker Deployment a worker runs as (docs/deploying.md), from its settings.

const none = { built: () => undefined, checkout: () => undefined };
const ownBuild = { embedded: true, callersBundle: false };

describe('the worker version', () => {
  it('is on by default, in the `payflows` deployment, with runs pinned unless a workflow says otherwise', () => {
    const config = loadConfig({ WORKER_BUILD_ID: 'build-7' });
    assert.deepEqual(config.worker.versioning, {
      enabled: true,
      deploymentName: 'payflows',
      buildId: 'build-7',
      bootstrap: true,
    });
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

  it('takes the build id from WORKER_BUILD_ID, else the one `npm run build` wrote, else (embedded only) the checkout', () => {
    const finders = { built: () => 'from-build', checkout: () => 'abc123def456' };
    assert.deepEqual(resolveBuildId('set', ownBuild, finders), { buildId: 'set', source: 'WORKER_BUILD_ID' });
    assert.deepEqual(resolveBuildId(undefined, ownBuild, finders), { buildId: 'from-build', source: 'build' });
    assert.deepEqual(resolveBuildId(undefined, ownBuild, { ...finders, built: () => undefined }), {
      buildId: 'abc123def456',
      source: 'git',
    });
  });

  it("off the embedded server, refuses a checkout's commit: WORKER_BUILD_ID or dist/build-id.txt is needed", () => {
    const remote = { embedded: false, callersBundle: false };
    assert.throws(
      () => resolveBuildId(undefined, remote, { built: () => undefined, checkout: () => 'abc123def456' }),
      (err: unknown) => {
        assert.ok(err instanceof ConfigError);
        assert.match(err.message, /WORKER_BUILD_ID/);
        assert.match(err.message, /build-id\.txt/);
        return true;
      },
    );
    // What it does take there.
    assert.equal(resolveBuildId(undefined, remote, { built: () => 'b', checkout: () => 'c' }).buildId, 'b');
    assert.equal(resolveBuildId('set', remote, none).buildId, 'set');
    // Through the configuration: TEMPORAL_ADDRESS set, a cluster's port-forward on this machine too.
    assert.throws(() => workerVersion(loadConfig({ TEMPORAL_ADDRESS: '127.0.0.1:7233' })), /WORKER_BUILD_ID/);
  });

  it("with its caller's workflow bundle, a worker needs WORKER_BUILD_ID: payflows' own build id names other code", () => {
    const callers = { embedded: true, callersBundle: true };
    const finders = { built: () => 'payflows-build', checkout: () => 'abc123def456' };
    assert.throws(
      () => resolveBuildId(undefined, callers, finders),
      (err: unknown) => {
        assert.ok(err instanceof ConfigError);
        assert.match(err.message, /workflowBundlePath/);
        assert.match(err.message, /WORKER_BUILD_ID/);
        return true;
      },
    );
    assert.equal(resolveBuildId('theirs-1', callers, finders).buildId, 'theirs-1');
    assert.throws(() => workerVersion(loadConfig({}), { callersBundle: true }), /WORKER_BUILD_ID/);
  });

  it('names a modified checkout apart from its commit, and never reads a checkout around node_modules', (t) => {
    const dir = committedCheckout(t, { 'workflow.ts': 'export const a = 1;\n' });
    if (!dir) return;
    const clean = checkoutBuildId(dir);
    assert.match(clean ?? '', /^[0-9a-f]{12}$/);
    writeFileSync(join(dir, 'workflow.ts'), 'export const a = 2;\n');
    const modified = checkoutBuildId(dir);
    assert.match(modified ?? '', new RegExp(`^${clean}-dirty-[0-9a-f]{12}$`));
    assert.equal(checkoutBuildId(dir), modified, 'the same changes, the same id');
    writeFileSync(join(dir, 'workflow.ts'), 'export const a = 3;\n');
    assert.notEqual(checkoutBuildId(dir), modified, 'other changes, another id');
    writeFileSync(join(dir, 'workflow.ts'), 'export const a = 1;\n');
    assert.equal(checkoutBuildId(dir), clean, 'back to the commit');
    writeFileSync(join(dir, 'new-workflow.ts'), 'export const b = 1;\n');
    assert.match(checkoutBuildId(dir) ?? '', /-dirty-/, 'a new file is a change');
    // Installed as a package, the checkout around it is the consumer's.
    const installed = join(dir, 'node_modules', 'payflows');
    mkdirSync(installed, { recursive: true });
    assert.equal(checkoutBuildId(installed), undefined);
  });

  it('refuses to start without any build id, saying what to set', () => {
    assert.throws(
      () => resolveBuildId(undefined, ownBuild, none),
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

  it('lets the first version make itself current only when said, or on the embedded server', () => {
    assert.equal(loadConfig({}).worker.versioning.bootstrap, true, 'embedded: on');
    assert.equal(loadConfig({ TEMPORAL_ADDRESS: '127.0.0.1:7233' }).worker.versioning.bootstrap, false);
    const on = { TEMPORAL_ADDRESS: '127.0.0.1:7233', WORKER_VERSION_BOOTSTRAP: 'on' };
    assert.equal(loadConfig(on).worker.versioning.bootstrap, true);
    assert.equal(loadConfig({ WORKER_VERSION_BOOTSTRAP: 'off' }).worker.versioning.bootstrap, false);
    assert.throws(() => loadConfig({ WORKER_VERSION_BOOTSTRAP: 'yes' }), /\n {2}WORKER_VERSION_BOOTSTRAP: \S/);
  });

  it("lets `npm run dev` ask for AUTO_UPGRADE as its runs' default", () => {
    const version = { deploymentName: 'payflows', buildId: 'b', source: 'git' as const };
    assert.equal(
      versioningSettings(version, 'AUTO_UPGRADE').workerDeploymentOptions?.defaultVersioningBehavior,
      'AUTO_UPGRADE',
    );
    assert.equal(versioningSettings(version).workerDeploymentOptions?.defaultVersioningBehavior, 'PINNED');
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
    assert.match(describeOutcome(v, { outcome: 'left', current: 'b1', why: 'w' }), /b1 is.*ramps or promotes/);
    assert.match(describeOutcome(v, { outcome: 'gave-up', reason: 'x' }), /set-current-version/);
  });
});
