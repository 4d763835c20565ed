import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, it } from 'node:test';

// bench/scale/abort.ts: a scale run stopped by a signal stops its PostgreSQL and Temporal server
// even when calls in flight fail while it stops (a first version died there and left both running).

async function stopped(signals: NodeJS.Signals[]) {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/scale-abort.ts'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
  while (!out.includes('ready')) await once(proc.stdout, 'data');
  for (const signal of signals) proc.kill(signal);
  const [code] = (await once(proc, 'exit')) as [number | null];
  return { out, code };
}

describe('a scale run stopped by a signal', { timeout: 30_000 }, () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    it(`stops what it started to the end on ${signal}, through errors thrown meanwhile, and exits 130`, async () => {
      const { out, code } = await stopped([signal]);
      assert.match(out, /while stopping: Channel has been shut down/);
      assert.equal(out.match(/stopped\n/g)?.length, 1);
      assert.equal(code, 130);
    });

  it('stops once when a second signal comes while it stops', async () => {
    const { out, code } = await stopped(['SIGINT', 'SIGTERM']);
    // The two arrive in either order; one starts the stop, the other finds it under way.
    assert.equal(out.match(/: stopping what this run started/g)?.length, 1);
    assert.match(out, /SIG(INT|TERM): already stopping/);
    assert.equal(out.match(/stopped\n/g)?.length, 1);
    assert.equal(code, 130);
  });
});
