import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { request } from 'undici';
import * as api from '../../src/provider/endpoints.js';
import { MASTER, startSandbox, type TestSandbox } from '../helpers/sandbox.js';

// The pages an end user opens: opening one changes nothing; its button does, once; and a page
// that cannot be used says why. The browser test (test/cluster/browser.test.ts) clicks the same.

const form = (fields: Record<string, string>) => ({
  method: 'POST' as const,
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

describe('the sandbox’s hosted pages (contract §2.8, §4.3)', () => {
  let sandbox: TestSandbox;
  before(async () => {
    sandbox = await startSandbox();
  });
  after(() => sandbox?.stop());

  const open = async (path: string, init?: Parameters<typeof request>[1]) => {
    const res = await request(new URL(path, sandbox.url), init);
    return {
      status: res.statusCode,
      location: res.headers.location as string | undefined,
      text: await res.body.text(),
    };
  };
  const userStatus = (id: string) => sandbox.state.users[id]!.user.status;

  it('an onboarding link starts the review when the user submits, not when the page is opened', async () => {
    const user = await sandbox.master.call(api.createUser, { body: {} });
    const link = await sandbox.master.call(api.readOnboardingLink, {
      params: { userId: user.id },
      masqueradeAs: `user:${user.id}`,
    });
    const path = new URL(link.verificationLinkUrl).pathname;
    const shown = await open(path);
    assert.equal(shown.status, 200);
    assert.match(shown.text, /Submit for review/);
    assert.equal(userStatus(user.id), 'OPEN', 'opening the page changes nothing');

    const submitted = await open(path, form({}));
    assert.equal(submitted.status, 200);
    assert.match(submitted.text, /PENDING/);
    assert.equal(userStatus(user.id), 'PENDING');
    assert.doesNotMatch((await open(path)).text, /Submit for review/, 'submitted once, the page shows the status');
  });

  it('an expired or unknown link is refused on submit too, and the user stays as they were', async () => {
    const user = await sandbox.master.call(api.createUser, { body: {} });
    const link = await sandbox.master.call(api.readOnboardingLink, {
      params: { userId: user.id },
      masqueradeAs: `user:${user.id}`,
    });
    const path = new URL(link.verificationLinkUrl).pathname;
    sandbox.clock.now += 31 * 60_000;
    try {
      assert.equal((await open(path, form({}))).status, 410);
      assert.equal((await open('/sandbox/idverify/0000', form({}))).status, 404);
      assert.equal(userStatus(user.id), 'OPEN');
    } finally {
      sandbox.clock.now -= 31 * 60_000;
    }
  });

  const reserve = (body: Record<string, unknown>) =>
    sandbox.master.call(api.reserveOrder, {
      body: { sourceCurrency: 'USD', destCurrency: 'USD', ...body },
    });

  it('Pay completes the order once and sends the browser to the redirectUrl with the order’s parameters', async () => {
    const reserved = await reserve({ sourceAmount: '25.10', redirectUrl: 'https://shop.example.test/done' });
    const page = await open(new URL(reserved.url).pathname + new URL(reserved.url).search);
    assert.equal(page.status, 200);
    assert.match(page.text, /Buy 25\.1 USD/, 'the amount in canonical decimal');
    assert.equal(sandbox.state.reservations[reserved.reservation]!.status, 'OPEN', 'opening the page changes nothing');

    // A locked amount is the reservation's: an edited form pays it all the same.
    const paid = await open('/sandbox/checkout/pay', form({ reservation: reserved.reservation, amount: '999' }));
    assert.equal(paid.status, 303);
    const to = new URL(paid.location!);
    assert.equal(to.origin + to.pathname, 'https://shop.example.test/done');
    const order = await sandbox.master.call(api.readOrder, { params: { orderId: to.searchParams.get('orderId')! } });
    assert.equal(order.status, 'COMPLETE');
    assert.equal(to.searchParams.get('destAmount'), '25.1');
    assert.equal(to.searchParams.get('transferId'), order.transferId);

    const again = await open('/sandbox/checkout/pay', form({ reservation: reserved.reservation, amount: '25.10' }));
    assert.equal(again.status, 410, 'a reservation is used once');
    assert.equal(Object.values(sandbox.state.orders).filter((o) => o.reservation === reserved.reservation).length, 1);
  });

  it('a bad amount or an unknown reservation is refused and nothing is bought', async () => {
    const reserved = await reserve({});
    const before = Object.keys(sandbox.state.orders).length;
    const page = await open(`/sandbox/checkout?reservation=${reserved.reservation}`);
    assert.match(page.text, /name="amount"/, 'an unlocked amount is asked for');
    for (const amount of ['', '-1', 'abc', '1e3']) {
      const refused = await open('/sandbox/checkout/pay', form({ reservation: reserved.reservation, amount }));
      assert.equal(refused.status, 400, `amount ${JSON.stringify(amount)}`);
    }
    assert.equal((await open('/sandbox/checkout/pay', form({ reservation: 'RS_NONE', amount: '1' }))).status, 404);
    assert.equal(Object.keys(sandbox.state.orders).length, before);
    assert.equal(sandbox.state.reservations[reserved.reservation]!.status, 'OPEN');
  });

  it('the banner’s Onboarding button opens a live onboarding link for the reservation’s owner', async () => {
    await sandbox.op('POST', `/sandbox/accounts/${MASTER.accountId}/features`, { debitCardL2: true, userApi: true });
    const user = await sandbox.master.call(api.createUser, { body: { scopes: ['DEBIT_CARD_L2'] } });
    const owned = await reserve({ sourceAmount: '10', owner: `user:${user.id}` });
    const page = await open(`/sandbox/checkout?reservation=${owned.reservation}`);
    assert.match(page.text, /action="\/sandbox\/checkout\/onboarding"/, 'the banner is a button');
    const links = Object.keys(sandbox.state.onboardingLinks).length;
    assert.equal((await open(`/sandbox/checkout/onboarding?reservation=${owned.reservation}`)).status, 404);
    assert.equal(Object.keys(sandbox.state.onboardingLinks).length, links, 'a GET makes no link');
    const banner = await open('/sandbox/checkout/onboarding', form({ reservation: owned.reservation }));
    assert.equal(banner.status, 303);
    assert.match(banner.location!, /^\/sandbox\/idverify\//);
    await open(banner.location!, form({}));
    assert.equal(userStatus(user.id), 'PENDING');

    const ownerless = await reserve({ sourceAmount: '10' });
    assert.equal(
      (await open('/sandbox/checkout/onboarding', form({ reservation: ownerless.reservation }))).status,
      404,
    );
  });
});
