import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Client } from '@temporalio/client';
import { request } from 'undici';
import { loadConfig, SANDBOX_CREDENTIALS } from '../../src/config.js';
import { freePort } from '../../src/temporal/ports.js';
import { startDevIngress } from '../../scripts/lib/dev-ingress.js';
import { accepts, outsideAddresses as outside } from '../helpers/listening.js';

// `npm run dev`'s callback ingress (scripts/lib/dev-ingress.ts). With the sandbox's published
// secret, anyone who can reach it can sign a deposit: then it listens on loopback only, where the
// sandbox calls it back. With a secret of the deployment's own, the provider must reach it from outside.

/** The ingress started as `npm run dev` starts it, with `env`; what answers where. */
async function devIngress(env: Record<string, string>) {
  const port = await freePort();
  const config = loadConfig({ ...env, INGRESS_PORT: String(port) });
  // Listening needs no Temporal: a callback is refused for its signature before any call.
  const { app, host } = await startDevIngress(config, { client: {} as Client });
  try {
    const res = await request(`http://127.0.0.1:${port}/callbacks`, { method: 'POST', body: '{}' });
    await res.body.dump();
    const fromOutside = await Promise.all(outside.map((a) => accepts(a, port)));
    return { host, bound: app.server.address(), loopbackStatus: res.statusCode, fromOutside };
  } finally {
    await app.close();
  }
}

describe("npm run dev's callback ingress", () => {
  it("listens on loopback only with the sandbox's published secret, unreachable from this machine's other addresses", async (t) => {
    if (outside.length === 0)
      t.diagnostic('this machine has no address but loopback: only the bound address is checked');
    const stacks: Array<[string, Record<string, string>]> = [
      ['the embedded stack, its defaults', {}],
      [
        'the sandbox secret against a Temporal server elsewhere',
        { TEMPORAL_ADDRESS: '127.0.0.1:7233', PROVIDER_SECRET_KEY: SANDBOX_CREDENTIALS.secretKey },
      ],
      [
        'the sandbox secret among those of a rotation',
        { PROVIDER_CALLBACK_SECRETS: `SK-NEW-0123456789abcdef,${SANDBOX_CREDENTIALS.secretKey}` },
      ],
    ];
    for (const [name, env] of stacks) {
      const { host, bound, loopbackStatus, fromOutside } = await devIngress(env);
      assert.deepEqual(
        fromOutside,
        outside.map(() => false),
        `${name}: reachable from ${outside.join(', ')}`,
      );
      assert.equal(typeof bound === 'object' && bound?.address, '127.0.0.1', name);
      assert.equal(host, '127.0.0.1', name);
      assert.equal(loopbackStatus, 401, `${name}: the sandbox, on loopback, still reaches it (unsigned: 401)`);
    }
  });

  it('listens on every interface with a secret of its own, so that the provider reaches it', async () => {
    const { host, fromOutside } = await devIngress({
      PROVIDER_BASE_URL: 'https://api.provider.example',
      PROVIDER_SECRET_KEY: 'SK-LIVE-0123456789abcdef',
    });
    assert.equal(host, '0.0.0.0');
    assert.deepEqual(
      fromOutside,
      outside.map(() => true),
    );
  });
});
