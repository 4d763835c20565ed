import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type RunningProcess, startProcess, stopProcess } from '../../scripts/lib/product-processes.js';
import { type ClusterDescription, clusterClientEnv, clusterDescription } from '../helpers/cluster.js';

// `npm run drill` on the PostgreSQL cluster with worker kills as its chaos command: the command
// SIGKILLs one of the two workers (its pid in a file), and this test starts it again as a
// supervisor would (docker compose's restart policy, a Deployment's). Every wallet ends exact.

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('npm run drill on the cluster', () => {
  let cluster: ClusterDescription;
  let dir: string;
  const restarted: RunningProcess[] = [];
  let supervising = true;
  before(() => {
    cluster = clusterDescription();
    dir = mkdtempSync(join(tmpdir(), 'payflows-drill-cluster-'));
  });
  after(async () => {
    supervising = false;
    for (const p of restarted) await stopProcess(p);
    rmSync(dir, { recursive: true, force: true });
  });

  it('stays exact while a worker is killed every 20 s', { timeout: 5 * 60_000 }, async () => {
    const worker = cluster.processes.find((p) => p.name.startsWith('worker') && alive(p.pid));
    assert.ok(worker, 'a worker of the cluster is running');
    const pidFile = join(dir, 'worker.pid');
    writeFileSync(pidFile, String(worker.pid));
    // The supervisor: a killed worker is started again, and the pid file names the new one.
    const supervisor = (async () => {
      let pid = worker.pid;
      for (let n = 1; supervising; n++) {
        await new Promise((r) => setTimeout(r, 500));
        if (alive(pid) || !supervising) continue;
        const again = await startProcess({ ...worker, log: `${worker.log}.drill-${n}` });
        restarted.push(again);
        pid = again.child.pid!;
        writeFileSync(pidFile, String(pid));
      }
    })();
    const chaos = `kill -9 $(cat ${pidFile})`;
    const args = [
      '--wallets',
      '4',
      '--minutes',
      '1',
      '--chaos',
      chaos,
      '--every',
      '20',
      '--svg',
      join(dir, 'drill.svg'),
    ];
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/drill.ts', ...args], {
      env: { ...process.env, ...cluster.workerEnv, ...clusterClientEnv(cluster) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    supervising = false;
    await supervisor;
    assert.equal(out.trimEnd().split('\n').at(-1), 'drill: exact 4/4 wallets, 0 counted twice, 0 stuck', out);
    assert.match(out, /chaos runs +[1-9]\d* \(0 failed\)/, out);
    assert.equal(code, 0, out);
  });
});
