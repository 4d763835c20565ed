import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, it } from 'node:test';

// bench/scale/abort.ts: a scale run stopped by a signal stops its PostgreSQL and Temporal server
// even when calls in flight fail while it stops (a first version died there and left both running).

describe('a scale run stopped by a signal', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    it(`stops what it started to the end on ${signal}, through errors thrown meanwhile, and exits 130`, async () => {
      const proc = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/scale-abort.ts'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
      while (!out.includes('ready')) await once(proc.stdout, 'data');
      proc.kill(signal);
      const [code] = (await once(proc, 'exit')) as [number | null];
      assert.match(out, /while stopping: Channel has been shut down/);
      assert.match(out, /stopped/);
      assert.equal(code, 130);
    });
});
