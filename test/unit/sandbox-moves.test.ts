import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ProviderClient } from '../../src/provider/client.js';
import { createWallet, listWalletTransactions, readWallet } from '../../src/provider/endpoints.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { operatorCalls } from '../../scripts/fixtures/operator.js';

// The operator's transfer between two wallets and reversal of a confirmed transaction: both move
// the balances exactly, show in both wallets' listings, and are refused whole when they cannot be.

const API_KEY = 'AK-MOVES';
const SECRET = 'SK-MOVES-SECRET-0001';

describe('sandbox operator: transfers between wallets and reversals', () => {
  let sandbox: Sandbox;
  let provider: ProviderClient;
  let calls: ReturnType<typeof operatorCalls>;
  const balance = async (walletId: string) =>
    String((await provider.call(readWallet, { params: { walletId } })).availableBalances.BTC ?? '0');

  before(async () => {
    sandbox = createSandbox({ apiKey: API_KEY, secretKey: SECRET });
    const url = await sandbox.listen(0);
    provider = new ProviderClient({ baseUrl: url, auth: { kind: 'signature', apiKey: API_KEY, secretKey: SECRET } });
    calls = operatorCalls(url);
  });
  after(async () => sandbox?.close());

  it('a transfer debits one wallet and credits the other; its reversal puts both back', async () => {
    const a = await provider.call(createWallet, { body: { name: 'a' } });
    const b = await provider.call(createWallet, { body: { name: 'b' } });
    await calls.op('POST', `/sandbox/wallets/${a.id}/deposits`, { currency: 'BTC', amount: '0.3', confirmed: true });
    const { transaction } = await calls.op<{ transaction: { id: string; source: string; dest: string } }>(
      'POST',
      `/sandbox/wallets/${a.id}/transfers`,
      { to: b.id, currency: 'BTC', amount: '0.1' },
    );
    assert.deepEqual([transaction.source, transaction.dest], [a.srn, b.srn]);
    assert.deepEqual([await balance(a.id), await balance(b.id)], ['0.2', '0.1']);
    const listed = await provider.call(listWalletTransactions, { params: { walletId: a.id } });
    assert.ok(
      listed.data.some((t) => t.id === transaction.id),
      'the source wallet lists the transfer',
    );
    const reversed = await calls.op<{ transaction: { status: string } }>(
      'POST',
      `/sandbox/transactions/${transaction.id}/reverse`,
    );
    assert.equal(reversed.transaction.status, 'REVERSED');
    assert.deepEqual([await balance(a.id), await balance(b.id)], ['0.3', '0']);
  });

  it('refuses a transfer beyond the available balance, and a second reversal, changing nothing', async () => {
    const a = await provider.call(createWallet, { body: { name: 'c' } });
    const b = await provider.call(createWallet, { body: { name: 'd' } });
    const { transaction } = await calls.op<{ transaction: { id: string } }>(
      'POST',
      `/sandbox/wallets/${a.id}/deposits`,
      { currency: 'BTC', amount: '0.05', confirmed: true },
    );
    const count = Object.keys(sandbox.ctx.store.state.transactions).length;
    const tooMuch = await calls.operator<{ problematicField?: string }>('POST', `/sandbox/wallets/${a.id}/transfers`, {
      to: b.id,
      currency: 'BTC',
      amount: '0.06',
    });
    assert.equal(tooMuch.status, 400);
    assert.equal(tooMuch.json.problematicField, 'amount');
    assert.equal(Object.keys(sandbox.ctx.store.state.transactions).length, count);
    await calls.op('POST', `/sandbox/transactions/${transaction.id}/reverse`);
    const again = await calls.operator<{ problematicField?: string }>(
      'POST',
      `/sandbox/transactions/${transaction.id}/reverse`,
    );
    assert.equal(again.status, 400);
    assert.equal(again.json.problematicField, 'status');
    assert.equal(await balance(a.id), '0');
  });

  it('counts the provider errors its fault knobs injected', async () => {
    await calls.op('PUT', '/sandbox/knobs/faults', { route: 'GET /v2/wallet/:walletId', failNext: 2 });
    const w = await provider.call(createWallet, { body: { name: 'e' } });
    for (let i = 0; i < 3; i++) await provider.call(readWallet, { params: { walletId: w.id } }).catch(() => {});
    const knobs = await calls.op<{ injected: number }>('GET', '/sandbox/knobs/faults/injected');
    assert.equal(knobs.injected, 2);
    await calls.op('DELETE', '/sandbox/knobs/faults');
  });
});
