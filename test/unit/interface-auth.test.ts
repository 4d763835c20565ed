import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { request } from 'undici';
import * as api from '../../src/provider/endpoints.js';
import { ProviderError } from '../../src/provider/errors.js';
import { requestSignature } from '../../src/provider/signing.js';
import { MASTER, startSandbox, type TestSandbox } from '../helpers/sandbox.js';

const isDenied = (code?: string) => (e: unknown) => e instanceof ProviderError && e.status === 401 && e.body.type === 'AccessDeniedException' && (code === undefined || e.body.errorCode === code);

describe('auth modes and masquerade (spec 5)', () => {
  let t: TestSandbox;
  let other: TestSandbox;
  before(async () => {
    t = await startSandbox();
    other = await startSandbox();
  });
  after(async () => {
    await t?.stop();
    await other?.stop();
  });

  it('signature and bearer auth work on every kind of call', async () => {
    const bearer = t.client({ kind: 'bearer', token: MASTER.secretKey });
    const acc = await bearer.call(api.createAccount, { body: { country: 'US' } });
    assert.equal((await t.master.call(api.readAccount, { params: { accountId: acc.id }, masqueradeAs: acc.id })).id, acc.id);
    assert.equal((await bearer.call(api.readAccount, { params: { accountId: acc.id }, masqueradeAs: acc.id })).id, acc.id);
    assert.ok((await bearer.call(api.listPaymentMethods)).data);
  });

  it('the onboarding link call needs no timestamp (spec 4.7); other signed calls do', async () => {
    const u = await t.master.call(api.createUser, { body: {} });
    const url = `${t.url}/v3/idverify/users/${u.id}`;
    const res = await request(url, { headers: { 'x-api-key': MASTER.apiKey, 'x-api-signature': requestSignature(MASTER.secretKey, url) } });
    assert.equal(res.statusCode, 200);
    await res.body.dump();
    const other = `${t.url}/v3/users/${u.id}`;
    const refused = await request(other, { headers: { 'x-api-key': MASTER.apiKey, 'x-api-signature': requestSignature(MASTER.secretKey, other) } });
    assert.equal(refused.statusCode, 401);
    assert.equal(((await refused.body.json()) as { errorCode: string }).errorCode, 'accessDenied.missingTimestamp');
  });

  it('a user SRN reaches the user; the bare user id is taken as an account and refused (spec 5.4)', async () => {
    const u = await t.master.call(api.createUser, { body: {} });
    assert.equal((await t.master.call(api.readUser, { params: { userId: u.id }, masqueradeAs: `user:${u.id}` })).id, u.id);
    // The client refuses the bare id before sending; sent anyway, the sandbox reads it as an account.
    const url = `${t.url}/v3/users/${u.id}?masqueradeAs=${u.id}&timestamp=${t.clock.now}`;
    const res = await request(url, { headers: { 'x-api-key': MASTER.apiKey, 'x-api-signature': requestSignature(MASTER.secretKey, url) } });
    assert.equal(res.statusCode, 401);
    assert.equal(((await res.body.json()) as { errorCode: string }).errorCode, 'accessDenied.masquerade');
  });

  it('a parent masquerades only as its own sub-accounts and users; another tenant\'s are AccessDeniedException', async () => {
    const theirs = await other.master.call(api.createAccount, { body: { country: 'US' } });
    // The other sandbox is another tenant; copy its account into this one's state under another parent.
    t.state.accounts[theirs.id] = { ...other.state.accounts[theirs.id]!, parentId: 'AC_SOMEONEELSE' };
    await assert.rejects(t.master.call(api.readAccount, { params: { accountId: theirs.id }, masqueradeAs: theirs.id }), isDenied('accessDenied.masquerade'));
    await assert.rejects(t.master.call(api.readAccount, { params: { accountId: theirs.id } }), isDenied('accessDenied.notOwner'));
    const foreignUser = await other.master.call(api.createUser, { body: {} });
    t.state.users[foreignUser.id] = { ...other.state.users[foreignUser.id]!, ownerAccountId: 'AC_SOMEONEELSE' };
    await assert.rejects(t.master.call(api.readUser, { params: { userId: foreignUser.id }, masqueradeAs: `user:${foreignUser.id}` }), isDenied('accessDenied.masquerade'));
  });

  it('masqueradeAs is inside the signature: changing it after signing is refused', async () => {
    const acc = await t.master.call(api.createAccount, { body: { country: 'US' } });
    const signed = `${t.url}/v3/accounts/${acc.id}?masqueradeAs=${acc.id}&timestamp=${t.clock.now}`;
    const sent = signed.replace(`masqueradeAs=${acc.id}`, 'masqueradeAs=AC_ELSEWHERE');
    const res = await request(sent, { headers: { 'x-api-key': MASTER.apiKey, 'x-api-signature': requestSignature(MASTER.secretKey, signed) } });
    assert.equal(res.statusCode, 401);
    assert.equal(((await res.body.json()) as { errorCode: string }).errorCode, 'accessDenied.invalidSignature');
  });

  it('a user\'s payment method: owner user:<id> with masqueradeAs the same user (open-points)', async () => {
    const u = await t.master.call(api.createUser, { body: {} });
    const body = { paymentMethodType: 'LOCAL_TRANSFER' as const, country: 'US', accountNumber: '000123123123', owner: `user:${u.id}` };
    const pm = await t.master.call(api.createPaymentMethod, { body, masqueradeAs: `user:${u.id}` });
    assert.equal(pm.owner, `user:${u.id}`);
    await assert.rejects(t.master.call(api.createPaymentMethod, { body }), (e: unknown) => e instanceof ProviderError && e.body.problematicField === 'owner');
    await assert.rejects(t.master.call(api.readPaymentMethod, { params: { paymentMethodId: pm.id } }), isDenied('accessDenied.notOwner'));
  });
});

describe('fault knobs', () => {
  let t: TestSandbox;
  before(async () => (t = await startSandbox()));
  after(async () => t?.stop());

  it('fail the next requests of a route with 5xx, 429 or a transient error, then recover; nothing is created meanwhile', async () => {
    // A creating call (POST) is retried unless the provider says the failure is not transient (README, provider client).
    for (const [error, status, transient] of [['server', 500, false], ['rate-limit', 429, true], ['transient', 500, true]] as const) {
      await t.op('PUT', '/sandbox/knobs/faults', { route: 'POST /v2/wallets', error, failNext: 1 });
      const before = Object.keys(t.state.wallets).length;
      await assert.rejects(t.master.call(api.createWallet, { body: { name: 'x' } }), (e: unknown) => e instanceof ProviderError && e.status === status && e.body.transient === transient && e.retryable === (error !== 'server'));
      assert.equal(Object.keys(t.state.wallets).length, before);
      assert.ok(await t.master.call(api.createWallet, { body: { name: 'x' } }), `${error}: the next request succeeds`);
    }
  });

  it('adds latency to a route, and the knobs can be listed and cleared', async () => {
    await t.op('PUT', '/sandbox/knobs/faults', { route: 'GET /v2/paymentMethods', latencyMs: 300 });
    const start = Date.now();
    await t.master.call(api.listPaymentMethods);
    assert.ok(Date.now() - start >= 290, 'the answer was held back');
    assert.equal((await t.op<{ data: unknown[] }>('GET', '/sandbox/knobs/faults')).data.length, 2);
    await t.op('DELETE', '/sandbox/knobs/faults');
    assert.deepEqual((await t.op<{ data: unknown[] }>('GET', '/sandbox/knobs/faults')).data, []);
  });

  it('refuses a knob it does not understand', async () => {
    const r = await t.operator<{ problematicField: string }>('PUT', '/sandbox/knobs/faults', { route: 'wallets', failNext: 1 });
    assert.deepEqual([r.status, r.json.problematicField], [400, 'route']);
    assert.deepEqual((await t.op<{ data: unknown[] }>('GET', '/sandbox/knobs/faults')).data, []);
  });
});
