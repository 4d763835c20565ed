import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import { cpuMeter } from '../../bench/cpu.js';

// The bench splits a flow's CPU between its own process and the Temporal server's (bench/cpu.ts):
// a wrong field of /proc/<pid>/stat would put the cost on the wrong side, or nowhere.

const child = async (code: string) => {
  const proc = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'ignore'] });
  await once(proc.stdout, 'data'); // running its loop
  return proc;
};

describe("the bench's CPU meter", () => {
  it('counts a busy server process and not an idle one, and this process apart from both', async () => {
    const busy = await child('process.stdout.write("go"); for (;;) {}');
    const idle = await child('process.stdout.write("go"); setInterval(() => {}, 1000)');
    try {
      // This process read from /proc too, as if it were the server: the same CPU, by another road.
      const [onBusy, onIdle, onSelf] = [cpuMeter(busy.pid), cpuMeter(idle.pid), cpuMeter(process.pid)];
      await new Promise((r) => setTimeout(r, 600));
      const [b, i, self] = [onBusy(), onIdle(), onSelf()];
      // A shared machine may give the loop less than a core; it still spends a good share of the 600 ms.
      assert.ok(b.serverMs! >= 100 && b.serverMs! <= 1_300, `busy child: ${b.serverMs} ms of CPU in 600 ms`);
      assert.ok(i.serverMs! <= 30, `idle child: ${i.serverMs} ms`);
      // This process's figure is its own, whatever the machine's load: none of the child's.
      assert.ok(
        Math.abs(b.processMs - self.serverMs!) <= 30,
        `this process: ${b.processMs} ms, by /proc ${self.serverMs} ms; the busy child ${b.serverMs} ms`,
      );
    } finally {
      busy.kill('SIGKILL');
      idle.kill('SIGKILL');
    }
  });

  it('says nothing of a server it cannot read, rather than a figure', () => {
    assert.equal(cpuMeter(undefined)().serverMs, undefined);
    const gone = cpuMeter(2 ** 22 + 1)(); // above Linux's largest pid
    assert.equal(gone.serverMs, undefined);
    assert.ok(Number.isFinite(gone.processMs));
  });
});
