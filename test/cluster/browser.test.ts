import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { request } from 'undici';
import { connectClients, type ConnectedClients } from '../../src/client/index.js';
import { SANDBOX_CREDENTIALS } from '../../src/config.js';
import type { ProviderClient } from '../../src/provider/client.js';
import * as api from '../../src/provider/endpoints.js';
import { walletSrn } from '../../src/provider/srn.js';
import { kycWorkflowId } from '../../workflows/kyc/messages.js';
import { checkoutWorkflowId } from '../../workflows/checkout/messages.js';
import { onboardingWorkflowId } from '../../workflows/onboarding/messages.js';
import {
  ENCRYPTED,
  openBrowser,
  runPageUrl,
  signInToWebUi,
  type TestBrowser,
  textOnceShown,
} from '../helpers/browser.js';
import { type ClusterDescription, clusterDescription, clusterProvider, clusterClientEnv } from '../helpers/cluster.js';
import { resultWithin } from '../helpers/result.js';
import { eventually } from '../helpers/stack.js';

// What an operator and an end user see in a real browser (Debian's Chromium) on the cluster of
// `npm run cluster`: the Web UI shows payloads decoded only to an operator signed in with the
// decode role (test/cluster/sign-in.test.ts: the roles in full), and filters runs by
// ProcessStatus; the sandbox's hosted pages are clicked through as an end user would, and the
// processes move on.

const TIMING = { pollInitialMs: 300, pollMaxMs: 2_000 };

describe('the Web UI and the hosted pages in a browser', () => {
  let cluster: ClusterDescription;
  let clients: ConnectedClients;
  let provider: ProviderClient;
  let browser: TestBrowser;
  before(async () => {
    cluster = clusterDescription();
    clients = await connectClients({
      env: clusterClientEnv(cluster),
      timing: TIMING,
    });
    provider = clusterProvider(cluster);
    browser = await openBrowser('browser');
  });
  after(async () => {
    await browser?.close();
    await provider?.close();
    await clients?.close();
  });

  const operator = async (path: string, body: unknown = {}) => {
    const res = await request(`${cluster.sandboxUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.body.text();
    assert.equal(res.statusCode, 200, `${path}: ${text}`);
    return JSON.parse(text) as unknown;
  };
  const runUrl = (workflowId: string) =>
    runPageUrl(clients.temporal, { uiUrl: cluster.uiUrl, namespace: cluster.temporal.namespace }, workflowId);
  const signIn = (page: Page, username: string) =>
    signInToWebUi(
      page,
      cluster.uiUrl,
      cluster.signIn.users.find((u) => u.username === username)!,
    );

  it('a KYC run’s input and a wallet’s deposit show decoded only to an operator with the decode role', async () => {
    const account = await provider.call(api.createAccount, { body: { country: 'US' } });
    await clients.kyc.start(account.id);
    const wallet = await clients.wallets.open({ name: `browser-${randomUUID().slice(0, 8)}` });
    // A deposit whose amount appears nowhere but in the encrypted signal (and the wallet's ledger).
    const amount = '0.12345678';
    await operator(`/sandbox/wallets/${wallet.walletId}/deposits`, { currency: 'BTC', amount, confirmed: true });
    await eventually(async () =>
      assert.equal((await clients.wallets.state(wallet.walletId)).balances.BTC?.confirmed, amount),
    );
    const history = await clients.temporal.workflow.getHandle(wallet.walletWorkflowId).fetchHistory();
    const signal = history.events!.find(
      (e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'transaction',
    );
    assert.ok(signal, 'the deposit reached the wallet as a signal');
    const kycPage = await runUrl(kycWorkflowId(account.id));
    const depositEvent = `${await runUrl(wallet.walletWorkflowId)}/history/events/${signal.eventId}`;

    const stranger = await browser.newPage();
    await browser.step('signed in without the decode role: encrypted', async () => {
      await signIn(stranger, 'reader-without-decode');
      await stranger.goto(kycPage);
      const kyc = await textOnceShown(stranger, ENCRYPTED);
      // The UI's notice of the codec server's refusal: in the page, though shown only on hover.
      await stranger
        .getByText(/Codec Server could not connect/)
        .first()
        .waitFor({ state: 'attached' });
      assert.doesNotMatch(kyc, /"accountId"/, 'the KYC input is not readable');
      await stranger.goto(depositEvent);
      const deposit = await textOnceShown(stranger, ENCRYPTED);
      assert.doesNotMatch(deposit, new RegExp(amount.replace('.', '\\.')), 'the deposit’s amount is not readable');
    });

    const operatorPage = await browser.newPage();
    await browser.step('signed in with the decode role: decoded', async () => {
      await signIn(operatorPage, 'operator');
      await operatorPage.goto(kycPage);
      // Waited for as asserted: the UI decodes each payload on its own, the input card's after others.
      const decodedInput = new RegExp(`"accountId": "${account.id}"`);
      assert.match(await textOnceShown(operatorPage, decodedInput), decodedInput);
      await operatorPage.goto(depositEvent);
      const deposit = await textOnceShown(operatorPage, new RegExp(amount.replace('.', '\\.')));
      assert.match(deposit, /"currency": "BTC"/);
    });

    await browser.step('the list filters by ProcessStatus', async () => {
      const statusOf = async (workflowId: string) =>
        (await clients.temporal.workflow.getHandle(workflowId).describe()).searchAttributes.ProcessStatus?.[0];
      const walletStatus = await statusOf(wallet.walletWorkflowId);
      const kycStatus = await statusOf(kycWorkflowId(account.id));
      assert.ok(walletStatus && kycStatus && walletStatus !== kycStatus, `${walletStatus} / ${kycStatus}`);
      const list = (status: unknown) =>
        `${cluster.uiUrl}/namespaces/${cluster.temporal.namespace}/workflows?query=${encodeURIComponent(`ProcessStatus="${String(status)}"`)}`;
      await operatorPage.goto(list(walletStatus));
      const wallets = await textOnceShown(operatorPage, new RegExp(wallet.walletWorkflowId));
      assert.doesNotMatch(wallets, new RegExp(kycWorkflowId(account.id)));
      await operatorPage.goto(list(kycStatus));
      const kycs = await textOnceShown(operatorPage, new RegExp(account.id));
      assert.doesNotMatch(kycs, new RegExp(wallet.walletWorkflowId));
    });
  });

  it('an end user onboards from the checkout page’s banner and pays on it; onboarding and checkout end', async () => {
    // The merchant's site, where the hosted page sends the buyer back.
    const returns: URL[] = [];
    const shop: Server = createServer((req, res) => {
      returns.push(new URL(req.url!, 'http://shop'));
      res.setHeader('content-type', 'text/html');
      res.end('<!doctype html><title>Thank you</title><h1>Thank you for your order</h1>');
    });
    await new Promise<void>((r) => shop.listen(0, '127.0.0.1', r));
    const shopUrl = `http://127.0.0.1:${(shop.address() as { port: number }).port}`;
    try {
      await operator(`/sandbox/accounts/${SANDBOX_CREDENTIALS.accountId}/features`, { debitCardL2: true });
      const run = randomUUID().slice(0, 8);
      const userRef = `browser-user-${run}`;
      await clients.onboarding.start({ userRef, country: 'US' });
      const { userId } = await eventually(async () => {
        const state = await clients.onboarding.state(userRef);
        assert.ok(state.userId, 'the provider created the user');
        return state;
      });
      const buyer = await browser.newPage();
      await browser.step('the onboarding link: the user submits', async () => {
        await buyer.goto(await clients.onboarding.onboardingLink(userRef));
        await buyer.getByRole('button', { name: 'Submit for review' }).click();
        await buyer.getByText('Submitted for review').waitFor();
        await eventually(async () => assert.equal((await clients.onboarding.state(userRef)).userStatus, 'PENDING'));
      });
      await operator(`/sandbox/users/${userId}/approve`);
      assert.equal(
        (await resultWithin(clients.onboarding.result(userRef), onboardingWorkflowId(userRef))).outcome,
        'APPROVED',
      );

      const wallet = await clients.wallets.open({ name: `browser-buyer-${run}` });
      const orderRef = `browser-order-${run}`;
      const hosted = await clients.checkout.startAndGetPage({
        orderRef,
        sourceAmount: '40.5',
        sourceCurrency: 'USD',
        destCurrency: 'USD',
        dest: walletSrn(wallet.walletId),
        userId: userId!,
        requireHigherLimits: true,
        redirectUrl: `${shopUrl}/done`,
      });
      await browser.step('the checkout’s banner opens the owner’s verification', async () => {
        await buyer.goto(hosted.url);
        await buyer.getByRole('button', { name: 'Onboarding' }).click();
        await buyer.getByText('Identity verification').waitFor();
        assert.equal(await buyer.locator('#status').innerText(), 'APPROVED');
        assert.match(await buyer.locator('body').innerText(), new RegExp(`for user ${userId}`), 'the owner’s own');
      });

      await browser.step('Pay: the buyer returns to the shop, the checkout completes', async () => {
        await buyer.goto(hosted.url);
        await buyer.getByRole('button', { name: 'Pay' }).click();
        await buyer.getByText('Thank you for your order').waitFor();
        const back = returns.find((u) => u.pathname === '/done')!;
        assert.equal(back.searchParams.get('destAmount'), '40.5');
        const result = await resultWithin(clients.checkout.result(orderRef), checkoutWorkflowId(orderRef));
        assert.equal(result.outcome, 'COMPLETED');
        assert.equal(result.transferId, back.searchParams.get('transferId'));
        await eventually(async () =>
          assert.equal((await clients.wallets.state(wallet.walletId)).balances.USD?.confirmed, '40.5'),
        );
      });
      await browser.step('the page cannot be paid twice', async () => {
        await buyer.goto(hosted.url);
        await buyer.getByText('This checkout is used').waitFor();
      });
    } finally {
      shop.close();
    }
  });
});
