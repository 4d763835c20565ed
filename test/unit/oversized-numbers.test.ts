import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { parseCallback } from '../../src/ingress/callback.js';
import { ProviderClient } from '../../src/provider/client.js';
import { listWalletTransactions } from '../../src/provider/endpoints.js';
import { walletSrn } from '../../src/provider/srn.js';
import { statusHistory } from '../../src/provider/schemas/transfer.js';
import { parseJson } from '../../src/json.js';
import { faultSchema } from '../../src/sandbox/faults.js';

// A number a double cannot hold exactly (a 19-digit, nanosecond createdAt) is kept as text by
// src/json.ts; a field that is not an amount takes it as the nearest number rather than failing
// the whole answer (the ledger holds such a time aside as implausible).

const NANOSECONDS = '1800000000000000123';
const tx = (createdAt: string) =>
  `{"id":"TR_BIG1","createdAt":${createdAt},"source":"ethereum:EXTERNAL","dest":"${walletSrn('WA_BIG')}",` +
  `"currency":"ETH","amount":1.000000000000000001,"status":"CONFIRMED","confirmedAt":${createdAt}}`;

describe('an oversized number in a field that is not an amount', () => {
  it('a callback with a 19-digit createdAt is read, its time as a number, its amount exact', () => {
    const parsed = parseCallback(Buffer.from(tx(NANOSECONDS)));
    assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
    assert.equal(parsed.tx.createdAt, Number(NANOSECONDS));
    assert.equal(parsed.tx.amount, '1.000000000000000001');
  });

  it('a count (a status order) that a double cannot hold reads as a number too', () => {
    const parsed = statusHistory.safeParse(
      parseJson(
        '{"id":"1","transferId":"TF_1","createdAt":1800000000000,"type":"x","statusOrder":12345678901234567891,' +
          '"statusDetail":"","state":"","failedState":null}',
      ),
    );
    assert.ok(parsed.success, parsed.error?.message);
    assert.equal(parsed.data.statusOrder, 12345678901234567891);
  });

  it("the sandbox's fault knobs read such numbers too: a rate as the nearest number, a count out of range by its bound", () => {
    const rate = faultSchema.safeParse(parseJson('{"route":"*","errorRate":0.1000000000000000000001}'));
    assert.ok(rate.success, rate.error?.message);
    assert.equal(rate.data.errorRate, 0.1);
    const count = faultSchema.safeParse(parseJson('{"route":"*","failNext":123456789012345678901}'));
    assert.equal(count.success, false);
    assert.match(count.error!.issues[0]!.message, /Too big/);
  });

  it('a time still refuses what is no time, naming the field', () => {
    const parsed = parseCallback(Buffer.from(tx('-1800000000000000123')));
    assert.equal(parsed.ok, false);
    assert.match((parsed as { error: string }).error, /^createdAt: /);
  });

  describe('the provider client', () => {
    let server: Server;
    let base: string;
    before(async () => {
      server = createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(`{"data":[${tx('1800000000000')},${tx(NANOSECONDS).replace('TR_BIG1', 'TR_BIG2')}]}`);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(() => server.close());

    it('reads a wallet poll in which one transaction has a 19-digit createdAt: no contract error', async () => {
      const client = new ProviderClient({ baseUrl: base, auth: { kind: 'signature', apiKey: 'AK', secretKey: 'SK' } });
      try {
        const list = await client.call(listWalletTransactions, { params: { walletId: 'WA_BIG' } });
        assert.deepEqual(
          list.data.map((t) => [t.id, t.createdAt]),
          [
            ['TR_BIG1', 1800000000000],
            ['TR_BIG2', Number(NANOSECONDS)],
          ],
        );
      } finally {
        await client.close();
      }
    });
  });
});
