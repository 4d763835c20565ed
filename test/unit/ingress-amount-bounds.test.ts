import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@temporalio/client';
import { createIngress } from '../../src/ingress/server.js';
import { ProviderClient } from '../../src/provider/client.js';
import { listWalletTransactions } from '../../src/provider/endpoints.js';
import { ProviderContractError } from '../../src/provider/errors.js';
import { callbackSignature } from '../../src/provider/signing.js';
import { walletSrn } from '../../src/provider/srn.js';
import { createIngressMetrics } from '../../src/telemetry/ingress-metrics.js';
import { depositCallback } from '../helpers/callback.js';

// An amount past the bound of amounts (src/decimal.ts) where the provider's amounts come in: a
// correctly signed callback is refused with a 400 naming the field, counted, and signals nothing
// (it threw after the schema and answered 500, which the provider resends for ever); a poll's
// answer is a contract error naming the field, before any workflow sees the amount.

const SECRET = 'SK-BOUNDS';

/** A Temporal client that records every use: a refused callback must not touch it. */
function recordingClient(used: string[]): Client {
  return new Proxy({} as Client, {
    get: (_target, prop) => {
      used.push(String(prop));
      return () => {
        throw new Error(`the client was used: ${String(prop)}`);
      };
    },
  });
}

async function callbacksCounted(metrics: ReturnType<typeof createIngressMetrics>) {
  const counter = await metrics.registry.getSingleMetric('payflows_callbacks_total')!.get();
  return Object.fromEntries(counter.values.map((v) => [v.labels.outcome, v.value]));
}

describe('ingress: a signed callback whose amount is past the bound', () => {
  for (const [what, body] of [
    ['"amount": 1e80', depositCallback('WA_HUGE1', { amount: 1e80 }).replace('1e+80', '1e80')],
    [
      'an amount of 31 whole digits',
      depositCallback('WA_HUGE2').replace('"amount":0.1', `"amount":1${'0'.repeat(30)}`),
    ],
    ['an amount of 31 decimals', depositCallback('WA_HUGE3').replace('"amount":0.1', `"amount":0.${'0'.repeat(30)}1`)],
  ] as const)
    it(`${what}: 400 naming the field, counted as malformed, nothing signalled`, async () => {
      const used: string[] = [];
      const metrics = createIngressMetrics();
      const app = createIngress({
        client: recordingClient(used),
        taskQueue: 'q',
        secretKey: SECRET,
        maxBodyBytes: 16 * 1024,
        walletTimings: { pollIntervalMs: 60_000 },
        metrics,
      });
      try {
        assert.match(body, /"amount":(1e80|10{30}|0\.0{30}1),/);
        const res = await app.inject({
          method: 'POST',
          url: '/callbacks',
          headers: { 'content-type': 'application/json', 'x-api-signature': callbackSignature(SECRET, body) },
          payload: body,
        });
        assert.equal(res.statusCode, 400, res.body);
        const answer = res.json<{ error: string; detail: string }>();
        assert.equal(answer.error, 'malformed callback');
        assert.match(answer.detail, /^amount: .*at most 30 digits before the point and 30 after/);
        assert.deepEqual(await callbacksCounted(metrics), {
          accepted: 0,
          bad_signature: 0,
          malformed: 1,
          too_large: 0,
          temporal_unavailable: 0,
        });
        assert.deepEqual(used, [], 'nothing was signalled');
      } finally {
        await app.close();
      }
    });
});

describe('the provider client: a poll whose answer holds an amount past the bound', () => {
  let server: Server;
  let base: string;
  before(async () => {
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const tx = (id: string, amount: string) =>
        `{"id":"${id}","createdAt":1800000000000,"source":"ethereum:EXTERNAL","dest":"${walletSrn('WA_BIG')}",` +
        `"currency":"ETH","amount":${amount},"status":"CONFIRMED"}`;
      res.end(`{"data":[${tx('TR_OK1', '1.000000000000000001')},${tx('TR_HUGE1', '1e80')}]}`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => server.close());

  it('is a contract error naming the field, not an amount handed to a workflow', async () => {
    const client = new ProviderClient({ baseUrl: base, auth: { kind: 'signature', apiKey: 'AK', secretKey: 'SK' } });
    try {
      await assert.rejects(client.call(listWalletTransactions, { params: { walletId: 'WA_BIG' } }), (err: unknown) => {
        assert.ok(err instanceof ProviderContractError, String(err));
        assert.match(err.message, /data\.1\.amount: .*at most 30 digits before the point and 30 after/);
        return true;
      });
    } finally {
      await client.close();
    }
  });
});
