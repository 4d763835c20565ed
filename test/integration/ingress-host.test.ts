import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { SANDBOX_CREDENTIALS } from '../../src/config.js';
import { freePort } from '../../src/temporal/ports.js';
import { accepts, listenAddresses, outsideAddresses as outside } from '../helpers/listening.js';
import { scratchDirs } from '../helpers/scratch.js';
import { temporalSettings } from '../helpers/stack.js';

// `npm run ingress` (src/ingress/main.ts) listens where src/config.ts decides (INGRESS_HOST): with
// the sandbox's published secret, on loopback only, since anyone who reaches it could sign a deposit.

const KEY = Buffer.alloc(32, 7).toString('base64');
const dir = scratchDirs('ingress-host');

function env(extra: Record<string, string>): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: dir(),
    // The run's Temporal, and on the cluster its TLS and client credentials.
    ...temporalSettings(),
    PAYLOAD_ENCRYPTION_KEY: KEY,
    LOG_LEVEL: 'info',
    ...extra,
  };
}

describe('`npm run ingress` listens where the configuration says', () => {
  it("with the sandbox's published secret, on 127.0.0.1 only: unreachable from this machine's other addresses", async (t) => {
    if (outside.length === 0)
      t.diagnostic('this machine has no address but loopback: only the bound address is checked');
    const [port, opsPort] = [await freePort(), await freePort()];
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/ingress/main.ts'], {
      env: env({
        PROVIDER_SECRET_KEY: SANDBOX_CREDENTIALS.secretKey,
        INGRESS_PORT: String(port),
        INGRESS_OPS_PORT: String(opsPort),
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      const deadline = Date.now() + 60_000;
      while (!out.includes('ingress listening')) {
        assert.equal(child.exitCode, null, `the ingress exited before listening:\n${out}`);
        assert.ok(Date.now() < deadline, `the ingress did not listen within 60 s:\n${out}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.deepEqual(listenAddresses(port), ['127.0.0.1']);
      assert.deepEqual(
        await Promise.all(outside.map((a) => accepts(a, port))),
        outside.map(() => false),
        `reachable from ${outside.join(', ')}`,
      );
      assert.ok(await accepts('127.0.0.1', port), 'the sandbox, on loopback, still reaches it');
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });
});
