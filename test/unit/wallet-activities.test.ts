import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ApplicationFailure, ApplicationFailureCategory } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { request } from 'undici';
import { createWalletActivities } from '../../activities/wallets.js';
import { ProviderClient } from '../../src/provider/client.js';
import { createWallet } from '../../src/provider/endpoints.js';
import type { PollAnswer } from '../../src/provider/transaction-observation.js';
import { MASTER, startSandbox } from '../helpers/sandbox.js';

// The wallet's poll activities against the sandbox: what an attempt of the watch does, and how a
// 404 of the transaction list (an endpoint no document describes) is told apart from an unknown wallet.

const cursor = { since: 0, seen: [], open: {}, ended: [] };
const auth = { kind: 'signature' as const, apiKey: MASTER.apiKey, secretKey: MASTER.secretKey };

describe('wallet activities: the watch and the poll', () => {
  let sb: Awaited<ReturnType<typeof startSandbox>>;
  let proxyUrl = '';
  const proxy = createServer((req, res) => {
    // A provider that knows wallets but does not list their transactions: its list path is unknown.
    const path = req.url!.includes('/transactions') ? '/v2/no-such-route' : req.url!;
    void request(`${sb.url}${path}`, {
      method: req.method as 'GET',
      headers: req.headers as Record<string, string>,
    }).then(async (r) => {
      res.writeHead(r.statusCode, { 'content-type': String(r.headers['content-type'] ?? 'application/json') });
      res.end(Buffer.from(await r.body.arrayBuffer()));
    });
  });
  before(async () => {
    sb = await startSandbox({ now: () => Date.now() });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });
  after(async () => {
    proxy.close();
    await sb.sandbox.close();
  });
  const activities = (baseUrl: string) =>
    createWalletActivities({
      provider: new ProviderClient({ baseUrl, auth }),
      callbackUrl: 'http://127.0.0.1:1/callbacks',
    });
  const benign = (err: unknown) =>
    err instanceof ApplicationFailure &&
    err.category === ApplicationFailureCategory.BENIGN &&
    err.type === 'NothingNewYet' &&
    !err.nonRetryable;

  it('an attempt that finds nothing fails benignly, to be retried; one that finds a deposit answers it', async () => {
    const provider = new ProviderClient({ baseUrl: sb.url, auth });
    const wallet = await provider.call(createWallet, { body: { name: `watched-${Date.now()}` } });
    const { watchWalletTransactions } = activities(sb.url);
    await assert.rejects(new MockActivityEnvironment().run(watchWalletTransactions, wallet.id, cursor), benign);
    await sb.op('POST', `/sandbox/wallets/${wallet.id}/deposits`, { currency: 'BTC', amount: 0.5, confirmed: true });
    const answer: PollAnswer = await new MockActivityEnvironment().run(watchWalletTransactions, wallet.id, cursor);
    assert.ok('changed' in answer);
    assert.deepEqual(
      answer.changed.map((t) => ({ amount: t.amount, status: t.status })),
      [{ amount: '0.5', status: 'CONFIRMED' }],
    );
  });

  it('a wallet the provider does not know is notFound; one it knows but does not list is cannotList', async () => {
    const provider = new ProviderClient({ baseUrl: sb.url, auth });
    const wallet = await provider.call(createWallet, { body: { name: `unlisted-${Date.now()}` } });
    const env = new MockActivityEnvironment();
    assert.deepEqual(await env.run(activities(sb.url).pollWalletTransactions, 'WA_NOSUCHWALLET', cursor), {
      notFound: true,
    });
    assert.deepEqual(await env.run(activities(proxyUrl).pollWalletTransactions, wallet.id, cursor), {
      cannotList: true,
    });
  });
});
