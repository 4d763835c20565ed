import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { after, describe, it } from 'node:test';
import { freePort } from '../../src/temporal/ports.js';

// freePort within TEST_PORT_RANGE, the range each test suite hands its ports out from (below the
// kernel's ephemeral ports, so that neither suite's port-0 binds or outgoing connections take a
// port the other has handed out but not bound yet).

const listening: Server[] = [];
after(() => listening.forEach((s) => s.close()));

const listen = (port: number) =>
  new Promise<void>((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(port, '127.0.0.1', () => (listening.push(srv), resolve()));
  });

describe('freePort', () => {
  it('without TEST_PORT_RANGE, a port the kernel chose', async () => {
    const port = await freePort('127.0.0.1', {});
    assert.ok(port > 0 && port < 65536);
  });

  it('within TEST_PORT_RANGE: each port in it once, never one that is bound', async () => {
    const low = 20_000 + Math.floor(Math.random() * 10_000);
    await listen(low);
    const env = { TEST_PORT_RANGE: `${low}-${low + 3}` };
    const given = [
      await freePort('127.0.0.1', env),
      await freePort('127.0.0.1', env),
      await freePort('127.0.0.1', env),
    ];
    assert.deepEqual(
      [...given].sort((a, b) => a - b),
      [low + 1, low + 2, low + 3],
    );
    await assert.rejects(
      freePort('127.0.0.1', env),
      new RegExp(`freePort: no free port left in TEST_PORT_RANGE=${low}-${low + 3}.*widen the range`),
    );
  });

  it('a TEST_PORT_RANGE that is not low-high within 1024 to 65535 is refused, naming it', async () => {
    for (const value of ['20000', '30000-20000', '80-90', '60000-70000', 'many'])
      await assert.rejects(
        freePort('127.0.0.1', { TEST_PORT_RANGE: value }),
        new RegExp(`TEST_PORT_RANGE=${value} is not a port range: set it to low-high, 1024 to 65535`),
      );
  });
});
