import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { request } from 'undici';
import * as api from '../../src/provider/endpoints.js';
import { ProviderError } from '../../src/provider/errors.js';
import { requestSignature } from '../../src/provider/signing.js';
import { assertFields } from '../helpers/assert.js';
import { MASTER, startSandbox, type TestSandbox } from '../helpers/sandbox.js';

const isDenied = (code?: string) => (e: unknown) =>
  e instanceof ProviderError &&
  e.status === 401 &&
  e.body.type === 'AccessDeniedException' &&
  (code === undefined || e.body.errorCode === code);

describe('auth modes and masquerade (docs/provider-contract.md §5)', () => {
  let sandbox: TestSandbox;
  let other: TestSandbox;
  before(async () => {
    sandbox = await startSandbox();
    other = await startSandbox();
  });
  after(async () => {
    await sandbox?.stop();
    await other?.stop();
  });

  it('signature and bearer auth work on every kind of call', async () => {
    const bearer = sandbox.client({ kind: 'bearer', token: MASTER.secretKey });
    const acc = await bearer.call(api.createAccount, { body: { country: 'US' } });
    assert.equal(
      (await sandbox.master.call(api.readAccount, { params: { accountId: acc.id }, masqueradeAs: acc.id })).id,
      acc.id,
    );
    assert.equal(
      (await bearer.call(api.readAccount, { params: { accountId: acc.id }, masqueradeAs: acc.id })).id,
      acc.id,
    );
    assert.ok((await bearer.call(api.listPaymentMethods)).data);
  });

  it('the onboarding link call needs no timestamp (docs/provider-contract.md §4.7); other signed calls do', async () => {
    const user = await sandbox.master.call(api.createUser, { body: {} });
    const url = `${sandbox.url}/v3/idverify/users/${user.id}`;
    const res = await request(url, {
      headers: { 'x-api-key': MASTER.apiKey, 'x-api-signature': requestSignature(MASTER.secretKey, url) },
    });
    assert.equal(res.statusCode, 200);
    await res.body.dump();
    const other = `${sandbox.url}/v3/users/${user.id}`;
    const refused = await request(other, {
      headers: { 'x-api-key': MASTER.apiKey, 'x-api-signature': requestSignature(MASTER.secretKey, other) },
    });
    assert.equal(refused.statusCode, 401);
    assert.equal(((await refused.body.json()) as { errorCode: string }).errorCode, 'accessDenied.missingTimestamp');
  });

  it('a user SRN reaches the user; the bare user id is taken as an account and refused (docs/provider-contract.md §5.4)', async () => {
    const user = await sandbox.master.call(api.createUser, { body: {} });
    assert.equal(
      (await sandbox.master.call(api.readUser, { params: { userId: user.id }, masqueradeAs: `user:${user.id}` })).id,
      user.id,
    );
    // The client refuses the bare id before sending; sent anyway, the sandbox reads it as an account.
    const url = `${sandbox.url}/v3/users/${user.id}?masqueradeAs=${user.id}&timestamp=${sandbox.clock.now}`;
    const res = await request(url, {
      headers: { 'x-api-key': MASTER.apiKey, 'x-api-signature': requestSignature(MASTER.secretKey, url) },
    });
    assert.equal(res.statusCode, 401);
    assert.equal(((await res.body.json()) as { errorCode: string }).errorCode, 'accessDenied.masquerade');
  });

  it("a parent masquerades only as its own sub-accounts and users; another tenant's are AccessDeniedException", async () => {
    const theirs = await other.master.call(api.createAccount, { body: { country: 'US' } });
    // The other sandbox is another tenant; copy its account into this one's state under another parent.
    sandbox.state.accounts[theirs.id] = { ...other.state.accounts[theirs.id]!, parentId: 'AC_SOMEONEELSE' };
    await assert.rejects(
      sandbox.master.call(api.readAccount, { params: { accountId: theirs.id }, masqueradeAs: theirs.id }),
      isDenied('accessDenied.masquerade'),
    );
    await assert.rejects(
      sandbox.master.call(api.readAccount, { params: { accountId: theirs.id } }),
      isDenied('accessDenied.notOwner'),
    );
    const foreignUser = await other.master.call(api.createUser, { body: {} });
    sandbox.state.users[foreignUser.id] = { ...other.state.users[foreignUser.id]!, ownerAccountId: 'AC_SOMEONEELSE' };
    await assert.rejects(
      sandbox.master.call(api.readUser, { params: { userId: foreignUser.id }, masqueradeAs: `user:${foreignUser.id}` }),
      isDenied('accessDenied.masquerade'),
    );
  });

  // The ownership check of access.ts userFor, on its own: the callers below pass the masquerade
  // check (none asked, or a user of this parent), so only ownership stands between them and the user.
  it("without masquerade, a parent reads its own users only: another tenant's user and its onboarding link are AccessDeniedException", async () => {
    const mine = await sandbox.master.call(api.createUser, { body: {} });
    assert.equal((await sandbox.master.call(api.readUser, { params: { userId: mine.id } })).id, mine.id);
    const foreignUser = await other.master.call(api.createUser, { body: {} });
    sandbox.state.users[foreignUser.id] = { ...other.state.users[foreignUser.id]!, ownerAccountId: 'AC_SOMEONEELSE' };
    await assert.rejects(
      sandbox.master.call(api.readUser, { params: { userId: foreignUser.id } }),
      isDenied('accessDenied.notOwner'),
    );
    await assert.rejects(
      sandbox.master.call(api.readOnboardingLink, { params: { userId: foreignUser.id } }),
      isDenied('accessDenied.notOwner'),
    );
    assert.ok(
      !Object.values(sandbox.state.onboardingLinks).some((link) => link.userId === foreignUser.id),
      'no verification link was issued for the foreign user',
    );
  });

  it('a user reads itself only: masquerading as one user, another user of the same parent is AccessDeniedException', async () => {
    const alice = await sandbox.master.call(api.createUser, { body: {} });
    const bob = await sandbox.master.call(api.createUser, { body: {} });
    const asAlice = { masqueradeAs: `user:${alice.id}` };
    assert.equal((await sandbox.master.call(api.readUser, { params: { userId: alice.id }, ...asAlice })).id, alice.id);
    await assert.rejects(
      sandbox.master.call(api.readUser, { params: { userId: bob.id }, ...asAlice }),
      isDenied('accessDenied.notOwner'),
    );
  });

  it('masqueradeAs is inside the signature: changing it after signing is refused', async () => {
    const acc = await sandbox.master.call(api.createAccount, { body: { country: 'US' } });
    const signed = `${sandbox.url}/v3/accounts/${acc.id}?masqueradeAs=${acc.id}&timestamp=${sandbox.clock.now}`;
    const sent = signed.replace(`masqueradeAs=${acc.id}`, 'masqueradeAs=AC_ELSEWHERE');
    const res = await request(sent, {
      headers: { 'x-api-key': MASTER.apiKey, 'x-api-signature': requestSignature(MASTER.secretKey, signed) },
    });
    assert.equal(res.statusCode, 401);
    assert.equal(((await res.body.json()) as { errorCode: string }).errorCode, 'accessDenied.invalidSignature');
  });

  it("a user's payment method: owner user:<id> with masqueradeAs the same user (open-points)", async () => {
    const user = await sandbox.master.call(api.createUser, { body: {} });
    const body = {
      paymentMethodType: 'LOCAL_TRANSFER' as const,
      country: 'US',
      accountNumber: '000123123123',
      owner: `user:${user.id}`,
    };
    const pm = await sandbox.master.call(api.createPaymentMethod, { body, masqueradeAs: `user:${user.id}` });
    assert.equal(pm.owner, `user:${user.id}`);
    await assert.rejects(
      sandbox.master.call(api.createPaymentMethod, { body }),
      (e: unknown) => e instanceof ProviderError && e.body.problematicField === 'owner',
    );
    await assert.rejects(
      sandbox.master.call(api.readPaymentMethod, { params: { paymentMethodId: pm.id } }),
      isDenied('accessDenied.notOwner'),
    );
  });
});

describe('fault knobs', () => {
  let sandbox: TestSandbox;
  before(async () => (sandbox = await startSandbox()));
  after(async () => sandbox?.stop());

  it('fail the next requests of a route with 5xx, 429 or a transient error, then recover; nothing is created meanwhile', async () => {
    // A creating call (POST) is retried unless the provider says the failure is not transient (docs/provider-contract.md §OP-1).
    for (const [error, status, transient] of [
      ['server', 500, false],
      ['rate-limit', 429, true],
      ['transient', 500, true],
    ] as const) {
      await sandbox.op('PUT', '/sandbox/knobs/faults', { route: 'POST /v2/wallets', error, failNext: 1 });
      const before = Object.keys(sandbox.state.wallets).length;
      await assert.rejects(
        sandbox.master.call(api.createWallet, { body: { name: 'x' } }),
        (e: unknown) =>
          e instanceof ProviderError &&
          e.status === status &&
          e.body.transient === transient &&
          e.retryable === (error !== 'server'),
      );
      assert.equal(Object.keys(sandbox.state.wallets).length, before);
      assert.ok(
        await sandbox.master.call(api.createWallet, { body: { name: 'x' } }),
        `${error}: the next request succeeds`,
      );
    }
  });

  it('adds latency to a route, and the knobs can be listed and cleared', async () => {
    await sandbox.op('PUT', '/sandbox/knobs/faults', { route: 'GET /v2/paymentMethods', latencyMs: 300 });
    const start = Date.now();
    await sandbox.master.call(api.listPaymentMethods);
    assert.ok(Date.now() - start >= 290, 'the answer was held back');
    assert.equal((await sandbox.op<{ data: unknown[] }>('GET', '/sandbox/knobs/faults')).data.length, 2);
    await sandbox.op('DELETE', '/sandbox/knobs/faults');
    assert.deepEqual((await sandbox.op<{ data: unknown[] }>('GET', '/sandbox/knobs/faults')).data, []);
  });

  it('refuses a knob it does not understand', async () => {
    const refused = await sandbox.operator<{ problematicField: string }>('PUT', '/sandbox/knobs/faults', {
      route: 'wallets',
      failNext: 1,
    });
    assertFields(refused, { status: 400, json: { problematicField: 'route' } });
    assert.deepEqual((await sandbox.op<{ data: unknown[] }>('GET', '/sandbox/knobs/faults')).data, []);
  });
});
