import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { registerClientToken, generateClientSecret } from '../../src/provider/client-token.js';
import * as endpoints from '../../src/provider/endpoints.js';
import { ProviderError } from '../../src/provider/errors.js';
import { callbackSignature } from '../../src/provider/signing.js';
import { assertFields } from '../helpers/assert.js';
import { MASTER, startSandbox, type TestSandbox } from '../helpers/sandbox.js';

// Every endpoint of the interface: the client's request is accepted by the sandbox and its
// response parses with the client's schema. The last test checks that none was left out.

const called = new Set<string>();
const PDF = Buffer.from('%PDF-1.4\n% a document\n');

describe('every endpoint, client against sandbox', () => {
  let sandbox: TestSandbox;
  let hooks: Server;
  let hooksUrl: string;
  const received: Array<{ body: string; signature: string | undefined }> = [];

  before(async () => {
    sandbox = await startSandbox();
    // Where callbacks go: a receiver that records what arrives.
    hooks = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push({ body, signature: req.headers['x-api-signature'] as string | undefined });
        res.end('ok');
      });
    });
    await new Promise<void>((r) => hooks.listen(0, '127.0.0.1', () => r()));
    const address = hooks.address();
    hooksUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/callbacks`;
  });
  after(async () => {
    await sandbox?.stop();
    hooks?.close();
  });

  const call: typeof sandbox.master.call = async (endpoint, opts) => {
    called.add(endpoint.name);
    return sandbox.master.call(endpoint, opts);
  };

  it('wallets and transfers', async () => {
    const wallet = await call(endpoints.createWallet, { body: { name: 'endpoints', callbackUrl: hooksUrl } });
    assert.equal((await call(endpoints.readWallet, { params: { walletId: wallet.id } })).id, wallet.id);
    const payout = await sandbox.op<{ transfer: { id: string } }>(
      'POST',
      `/sandbox/wallets/${wallet.id}/interest-payouts`,
      { currency: 'USD', amount: 5 },
    );
    const list = await call(endpoints.listWalletTransactions, { params: { walletId: wallet.id } });
    assert.equal(list.data.length, 1);
    const tf = await call(endpoints.readTransfer, { params: { transferId: payout.transfer.id } });
    assertFields(tf.statusHistories, [
      { state: 'INITIATED', statusOrder: 0 },
      { state: 'COMPLETED', statusOrder: 5100 },
    ]);
    // The callback arrived at the wallet's callbackUrl, signed with the account's secret (docs/provider-contract.md §6.4).
    assert.equal(received.length, 1);
    assert.equal(received[0]!.signature, callbackSignature(MASTER.secretKey, received[0]!.body));
  });

  it('accounts: create, read, resubmit, upload a document', async () => {
    const acc = await call(endpoints.createAccount, {
      body: { country: 'US', profileFields: [{ fieldId: 'individualLegalName', value: 'Ada Lovelace' }] },
    });
    assert.match(acc.id, /^AC_/);
    assert.equal(acc.status, 'OPEN');
    const read = await call(endpoints.readAccount, { params: { accountId: acc.id }, masqueradeAs: acc.id });
    assert.equal(read.id, acc.id);
    const updated = await call(endpoints.updateAccount, {
      params: { accountId: acc.id },
      body: { profileFields: [{ fieldId: 'individualSsn', value: '123-45-6789' }] },
      masqueradeAs: `account:${acc.id}`,
    });
    assert.equal(updated.profileFields.find((f) => f.fieldId === 'individualSsn')?.status, 'PENDING');
    const uploaded = await call(endpoints.uploadDocument, {
      params: { accountId: acc.id, fieldId: 'individualGovernmentId' },
      query: { documentType: 'GOVT_ID', documentSubType: 'FRONT' },
      body: { bytes: PDF, contentType: 'application/pdf' },
      masqueradeAs: acc.id,
    });
    const gov = uploaded.profileFields.find((f) => f.fieldId === 'individualGovernmentId')!;
    assert.equal(gov.status, 'PENDING');
    assert.match((gov.value as string[])[0]!, /^DO_/);
    const doc = sandbox.state.documents[(gov.value as string[])[0]!]!;
    assertFields(doc, {
      size: PDF.length,
      contentType: 'application/pdf',
      documentType: 'GOVT_ID',
      documentSubType: 'FRONT',
    });
  });

  it('users, limits and the onboarding link', async () => {
    await sandbox.op('POST', `/sandbox/accounts/${MASTER.accountId}/features`, { debitCardL2: true });
    const user = await call(endpoints.createUser, {
      body: { fields: { country: 'US' }, blockchains: ['ALL'], immediate: true, scopes: ['DEBIT_CARD_L2'] },
    });
    assert.equal(user.status, 'PENDING');
    assert.deepEqual(Object.keys(user.depositAddresses ?? {}).sort(), ['BTC', 'ETH']);
    assert.equal(
      (await call(endpoints.readUser, { params: { userId: user.id }, masqueradeAs: `user:${user.id}` })).id,
      user.id,
    );
    const limits = await call(endpoints.calculateLimits, { body: { accountId: MASTER.accountId, userId: user.id } });
    assert.equal(limits.weeklyRemaining, limits.weeklyTotal);
    const link = await call(endpoints.readOnboardingLink, { params: { userId: user.id } });
    assert.equal(link.accountId, user.id);
    assert.match(link.verificationLinkUrl, /\/sandbox\/idverify\//);
  });

  it('reservations and orders', async () => {
    const reserved = await call(endpoints.reserveOrder, {
      body: {
        sourceAmount: 25,
        sourceCurrency: 'USD',
        destCurrency: 'USD',
        lockFields: ['sourceAmount'],
        redirectUrl: 'https://shop.example.test/done',
      },
    });
    const url = new URL(reserved.url);
    assert.equal(url.searchParams.get('reservation'), reserved.reservation);
    assert.equal(url.searchParams.get('accountId'), MASTER.accountId);
    assert.equal(
      (await call(endpoints.readReservation, { params: { reservationId: reserved.reservation } })).status,
      'OPEN',
    );
    const done = await sandbox.op<{ order: { id: string } }>(
      'POST',
      `/sandbox/reservations/${reserved.reservation}/complete`,
    );
    const order = await call(endpoints.readOrder, { params: { orderId: done.order.id } });
    assert.equal(order.status, 'COMPLETE');
  });

  it('payment methods: create with blockchains, list, read, attach later, ACH follow-up', async () => {
    const pm = await call(endpoints.createPaymentMethod, {
      body: {
        paymentMethodType: 'LOCAL_TRANSFER',
        country: 'US',
        accountNumber: '000123456789',
        routingNumber: '011000015',
        attachBlockchains: ['BTC'],
      },
    });
    assert.equal(pm.linkType, 'LOCAL_TRANSFER');
    assert.deepEqual(Object.keys(pm.blockchains ?? {}), ['BTC']);
    assert.ok((await call(endpoints.listPaymentMethods)).data.some((m) => m.id === pm.id));
    assert.equal((await call(endpoints.readPaymentMethod, { params: { paymentMethodId: pm.id } })).id, pm.id);
    const attached = await call(endpoints.attachBlockchains, {
      params: { paymentMethodId: pm.id },
      body: { blockchain: 'ETH' },
    });
    assert.deepEqual(Object.keys(attached.blockchains ?? {}).sort(), ['BTC', 'ETH']);
    await sandbox.op('POST', `/sandbox/payment-methods/${pm.id}/request-ach-form`);
    const followed = await call(endpoints.submitFollowup, {
      params: { paymentMethodId: pm.id },
      body: { bytes: Buffer.from([0xff, 0xd8, 0xff, 0xe0]), contentType: 'image/jpeg' },
    });
    assert.deepEqual(followed.waitingPrompts, []);
  });

  it('client-held token: register, create the account once, then both auth modes (docs/provider-contract.md §5.3)', async () => {
    const secret = generateClientSecret();
    assert.match(secret, /^[A-Za-z0-9]{30}$/);
    called.add(endpoints.registerClientSecret.name);
    const creds = await registerClientToken({ baseUrl: sandbox.url, secret, now: () => sandbox.clock.now });
    assert.match(creds.apiKey, /^AK-/);
    // Before an account exists, only account creation is open to the token.
    await assert.rejects(
      creds.bearer.call(endpoints.listPaymentMethods),
      (e: unknown) => e instanceof ProviderError && e.body.errorCode === 'accessDenied.noAccount',
    );
    const acc = await creds.bearer.call(endpoints.createAccount, { body: { country: 'DE' } });
    assert.equal((await creds.bearer.call(endpoints.readAccount, { params: { accountId: acc.id } })).id, acc.id);
    assert.equal(
      (await creds.signed.call(endpoints.readAccount, { params: { accountId: acc.id } })).id,
      acc.id,
      'the secret signs with the returned API key',
    );
    // docs/provider-contract.md §7.1: a second account creation with the bound token fails.
    const before = Object.keys(sandbox.state.accounts).length;
    // What docs/provider-contract.md §7.1 and §OP-1 say of it: a failure, 400 ValidationException, no field at fault.
    await assert.rejects(
      creds.bearer.call(endpoints.createAccount, { body: { country: 'DE' } }),
      (e: unknown) =>
        e instanceof ProviderError &&
        e.status === 400 &&
        e.body.type === 'ValidationException' &&
        !e.body.problematicField,
    );
    assert.equal(Object.keys(sandbox.state.accounts).length, before);
    await creds.bearer.close();
    await creds.signed.close();
  });

  it('no endpoint of the interface was left untested', () => {
    const all = Object.values(endpoints).map((e) => e.name);
    assert.deepEqual(
      all.filter((n) => !called.has(n)),
      [],
    );
  });
});
