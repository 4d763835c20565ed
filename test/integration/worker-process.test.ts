import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { describe, it } from 'node:test';
import { kill, spawnWorker } from '../helpers/worker-process.js';

// The worker process the tests kill as a crash would (test/helpers/worker-process.ts). A supervisor
// (the cluster's drill test) must name a new worker as soon as it exists: its chaos command may
// come while the worker is still starting, which under CI's load took more than the 20 s between two.

describe('a worker in a process of its own', () => {
  it('is named as soon as it is spawned, before it polls', async () => {
    let spawned: ChildProcess | undefined;
    let pollingYet = false;
    const starting = spawnWorker({}, { entry: 'test/fixtures/slow-worker.ts', onSpawn: (child) => (spawned = child) });
    void starting.then(() => (pollingYet = true));
    await new Promise((r) => setTimeout(r, 300));
    assert.ok(spawned?.pid, 'onSpawn got the process, with its pid, right away');
    assert.equal(pollingYet, false, 'the worker was still starting');
    const worker = await starting;
    assert.equal(worker, spawned, 'the process spawnWorker resolves with is the one onSpawn named');
    await kill(worker);
  });

  it('killed before it polls, rejects saying so', async () => {
    const starting = spawnWorker({}, { entry: 'test/fixtures/slow-worker.ts', onSpawn: (child) => void kill(child) });
    await assert.rejects(starting, /the worker exited with null before starting/);
  });
});
