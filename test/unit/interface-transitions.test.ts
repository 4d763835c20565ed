import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { request } from 'undici';
import * as api from '../../src/provider/endpoints.js';
import { ProviderError } from '../../src/provider/errors.js';
import { REVIEWER_NOTES } from '../../src/provider/reviewer-notes.js';
import { walletSrn } from '../../src/provider/srn.js';
import { assertFields } from '../helpers/assert.js';
import { MASTER, startSandbox, type TestSandbox } from '../helpers/sandbox.js';

// The state machines of docs/provider-contract.md §3 and the rules of docs/provider-contract.md §8, driven by operator routes (the provider's
// reviewers and customers) and observed through the client, as a product using them would.

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('profile fields and accounts (docs/provider-contract.md §3.2)', () => {
  let sandbox: TestSandbox;
  before(async () => (sandbox = await startSandbox()));
  after(async () => sandbox?.stop());

  it('OPEN → PENDING → rejected OPEN with a note → PENDING → APPROVED, and the account follows', async () => {
    const created = await sandbox.master.call(api.createAccount, {
      body: {
        country: 'US',
        profileFields: [
          { fieldId: 'individualLegalName', value: 'Ada' },
          { fieldId: 'individualDateOfBirth', value: '1815-12-10' },
          { fieldId: 'individualResidenceAddress', value: '1 Main St' },
          { fieldId: 'individualSsn', value: '000-00-0000' },
        ],
      },
    });
    const read = () =>
      sandbox.master.call(api.readAccount, { params: { accountId: created.id }, masqueradeAs: created.id });
    const field = async (id: string) => (await read()).profileFields.find((f) => f.fieldId === id)!;
    assert.equal(created.status, 'OPEN', 'documents are still missing');
    assert.deepEqual(
      {
        individualGovernmentId: (await field('individualGovernmentId')).status,
        individualSsn: (await field('individualSsn')).status,
      },
      { individualGovernmentId: 'OPEN', individualSsn: 'PENDING' },
    );

    for (const fieldId of ['individualGovernmentId', 'individualProofOfAddress'] as const) {
      await sandbox.master.call(api.uploadDocument, {
        params: { accountId: created.id, fieldId },
        body: { bytes: PNG, contentType: 'image/png' },
        masqueradeAs: created.id,
      });
    }
    assert.equal((await read()).status, 'PENDING', 'everything is under review');

    const rejected = await sandbox.op<{ status: string }>(
      'POST',
      `/sandbox/accounts/${created.id}/fields/individualSsn/reject`,
      { note: 'ssn.invalid' },
    );
    assert.equal(rejected.status, 'OPEN');
    assert.deepEqual(await field('individualSsn'), {
      fieldId: 'individualSsn',
      fieldType: 'STRING',
      value: '000-00-0000',
      note: REVIEWER_NOTES['ssn.invalid'].text,
      status: 'OPEN',
    });

    await sandbox.master.call(api.updateAccount, {
      params: { accountId: created.id },
      body: { profileFields: [{ fieldId: 'individualSsn', value: '123-45-6789' }] },
      masqueradeAs: created.id,
    });
    assertFields(await field('individualSsn'), { status: 'PENDING', note: null });

    for (const fieldId of [
      'individualLegalName',
      'individualDateOfBirth',
      'individualResidenceAddress',
      'individualSsn',
      'individualGovernmentId',
      'individualProofOfAddress',
    ]) {
      await sandbox.op('POST', `/sandbox/accounts/${created.id}/fields/${fieldId}/approve`);
    }
    const approved = await read();
    assert.equal(approved.status, 'APPROVED');
    assert.ok(
      approved.profileFields
        .filter((f) => f.status !== 'APPROVED')
        .every((f) => f.fieldId === 'individualSourceOfFunds' || f.value === null),
    );

    await sandbox.op('POST', `/sandbox/accounts/${created.id}/close`);
    assert.equal((await read()).status, 'CLOSED');
  });

  it("a rejected image is uploaded again: OPEN with the reviewer's note → PENDING with the new document", async () => {
    const acc = await sandbox.master.call(api.createAccount, { body: { country: 'GB' } });
    await sandbox.master.call(api.uploadDocument, {
      params: { accountId: acc.id, fieldId: 'individualGovernmentId' },
      body: { bytes: PNG, contentType: 'image/png' },
      masqueradeAs: acc.id,
    });
    await sandbox.op('POST', `/sandbox/accounts/${acc.id}/fields/individualGovernmentId/reject`, {
      note: 'identity.blurry',
    });
    const rejected = (
      await sandbox.master.call(api.readAccount, { params: { accountId: acc.id }, masqueradeAs: acc.id })
    ).profileFields.find((f) => f.fieldId === 'individualGovernmentId')!;
    assertFields(rejected, { status: 'OPEN', note: 'Image is blurry or hard to read' });
    const again = await sandbox.master.call(api.uploadDocument, {
      params: { accountId: acc.id, fieldId: 'individualGovernmentId' },
      body: { bytes: PNG, contentType: 'image/png' },
      masqueradeAs: acc.id,
    });
    const uploaded = again.profileFields.find((f) => f.fieldId === 'individualGovernmentId')!;
    assertFields(uploaded, { status: 'PENDING', note: null });
    assert.equal((uploaded.value as string[]).length, 2, 'the first document and the new one');
  });

  it('operator routes refuse a note about another field, and approving what is not pending; nothing changes', async () => {
    const acc = await sandbox.master.call(api.createAccount, { body: { country: 'US' } });
    const wrong = await sandbox.operator('POST', `/sandbox/accounts/${acc.id}/fields/individualSsn/reject`, {
      note: 'identity.blurry',
    });
    assert.equal(wrong.status, 400);
    const unknown = await sandbox.operator('POST', `/sandbox/accounts/${acc.id}/fields/individualSsn/reject`, {
      note: 'looks.fishy',
    });
    assert.equal((unknown.json as { problematicField: string }).problematicField, 'note');
    const early = await sandbox.operator('POST', `/sandbox/accounts/${acc.id}/fields/individualSsn/approve`);
    assert.equal(early.status, 400);
    const ssn = (
      await sandbox.master.call(api.readAccount, { params: { accountId: acc.id }, masqueradeAs: acc.id })
    ).profileFields.find((f) => f.fieldId === 'individualSsn')!;
    assertFields(ssn, { status: 'OPEN', note: null });
  });
});

describe('payment methods and the ACH form (docs/provider-contract.md §3.1)', () => {
  let sandbox: TestSandbox;
  let accountId: string;
  before(async () => {
    sandbox = await startSandbox();
    accountId = (await sandbox.master.call(api.createAccount, { body: { country: 'US' } })).id;
  });
  after(async () => sandbox?.stop());

  const sof = async () =>
    (await sandbox.master.call(api.readAccount, { params: { accountId }, masqueradeAs: accountId })).profileFields.find(
      (f) => f.fieldId === 'individualSourceOfFunds',
    )!;
  const ach = {
    paymentMethodType: 'LOCAL_TRANSFER' as const,
    country: 'US',
    accountNumber: '000987654321',
    routingNumber: '011000015',
  };

  it('PENDING → AWAITING_FOLLOWUP (ACH_FORM) → form submitted → APPROVED, with the source of funds following', async () => {
    const pm = await sandbox.master.call(api.createPaymentMethod, { body: ach, masqueradeAs: accountId });
    assert.equal(pm.status, 'PENDING');
    assertFields(await sof(), { value: pm.id, status: 'PENDING' });
    const read = () =>
      sandbox.master.call(api.readPaymentMethod, { params: { paymentMethodId: pm.id }, masqueradeAs: accountId });

    await sandbox.op('POST', `/sandbox/payment-methods/${pm.id}/request-ach-form`);
    const waiting = await read();
    assert.equal(waiting.status, 'AWAITING_FOLLOWUP');
    assertFields(waiting.waitingPrompts, [{ id: 'ACH_FORM', type: 'DOCUMENT' }]);
    assertFields(await sof(), { status: 'OPEN', note: 'Additional information is required' });

    await sandbox.master.call(api.submitFollowup, {
      params: { paymentMethodId: pm.id },
      body: { bytes: PNG, contentType: 'image/png' },
      masqueradeAs: accountId,
    });
    const submitted = await read();
    assertFields(submitted, { status: 'AWAITING_FOLLOWUP', waitingPrompts: [] });
    assertFields(await sof(), { status: 'PENDING', note: 'Payment method is under review' });

    await sandbox.op('POST', `/sandbox/payment-methods/${pm.id}/approve`);
    assert.equal((await read()).status, 'APPROVED');
    assertFields(await sof(), { status: 'APPROVED', note: null });
  });

  it('a follow-up nobody asked for is refused with PAYMENT_METHOD_DOESNT_SUPPORT_FOLLOWUPS', async () => {
    const pm = await sandbox.master.call(api.createPaymentMethod, {
      body: { ...ach, accountNumber: '000111222333' },
      masqueradeAs: accountId,
    });
    await assert.rejects(
      sandbox.master.call(api.submitFollowup, {
        params: { paymentMethodId: pm.id },
        body: { bytes: PNG, contentType: 'image/png' },
        masqueradeAs: accountId,
      }),
      (e: unknown) => e instanceof ProviderError && e.body.subType === 'PAYMENT_METHOD_DOESNT_SUPPORT_FOLLOWUPS',
    );
  });

  it('REJECTED and ACTIVE; a method that is not the source of funds leaves the account alone', async () => {
    const second = await sandbox.master.call(api.createPaymentMethod, {
      body: { ...ach, accountNumber: '000444555666' },
      masqueradeAs: accountId,
    });
    const before = await sof();
    await sandbox.op('POST', `/sandbox/payment-methods/${second.id}/request-ach-form`);
    await sandbox.op('POST', `/sandbox/payment-methods/${second.id}/reject`, { message: 'Name does not match' });
    const rejected = await sandbox.master.call(api.readPaymentMethod, {
      params: { paymentMethodId: second.id },
      masqueradeAs: accountId,
    });
    assertFields(rejected, { status: 'REJECTED', rejectionMessage: 'Name does not match' });
    assert.deepEqual(await sof(), before, 'the account reflects only its source of funds');

    const wire = await sandbox.master.call(api.createPaymentMethod, {
      body: { paymentMethodType: 'WIRE_TRANSFER', country: 'DE', currency: 'EUR', accountNumber: '12345678' },
    });
    assert.equal(wire.linkType, 'INTERNATIONAL_TRANSFER');
    await sandbox.op('POST', `/sandbox/payment-methods/${wire.id}/activate`);
    assert.equal(
      (await sandbox.master.call(api.readPaymentMethod, { params: { paymentMethodId: wire.id } })).status,
      'ACTIVE',
    );
  });

  it('a deposit to an attached address is liquidated to the payment method (docs/provider-contract.md §2.2 rule 3)', async () => {
    const pm = await sandbox.master.call(api.createPaymentMethod, {
      body: { ...ach, accountNumber: '000777888999', attachBlockchains: ['ALL'] },
    });
    const { transfer } = await sandbox.op<{ transfer: { id: string } }>(
      'POST',
      `/sandbox/payment-methods/${pm.id}/blockchain-deposits`,
      { currency: 'ETH', amount: 0.3 },
    );
    const tf = await sandbox.master.call(api.readTransfer, { params: { transferId: transfer.id } });
    assert.equal(tf.dest, pm.srn);
    assert.equal(tf.source, `ethereum:${pm.blockchains!.ETH}`);
    assert.equal(tf.status, 'COMPLETED');
  });
});

describe('users, higher limits and the onboarding link (docs/provider-contract.md §2.7, §2.8, §4.5 to §4.7, §8)', () => {
  let sandbox: TestSandbox;
  before(async () => (sandbox = await startSandbox()));
  after(async () => sandbox?.stop());

  it('DEBIT_CARD_L2 needs the operator first; then OPEN → PENDING (link opened) → APPROVED, and the higher US limits apply', async () => {
    await assert.rejects(
      sandbox.master.call(api.createUser, { body: { scopes: ['DEBIT_CARD_L2'] } }),
      (e: unknown) => e instanceof ProviderError && e.body.errorCode === 'accessDenied.scopeNotConfigured',
    );
    const plain = await sandbox.master.call(api.createUser, { body: { fields: { country: 'US' } } });
    const standard = await sandbox.master.call(api.calculateLimits, {
      body: { accountId: MASTER.accountId, userId: plain.id },
    });

    await sandbox.op('POST', `/sandbox/accounts/${MASTER.accountId}/features`, { debitCardL2: true });
    const user = await sandbox.master.call(api.createUser, {
      body: { fields: { country: 'US' }, scopes: ['DEBIT_CARD_L2'] },
    });
    assert.equal(user.status, 'OPEN');
    const link = await sandbox.master.call(api.readOnboardingLink, { params: { userId: user.id } });
    // The user opens the link and submits (test/unit/sandbox-pages.test.ts covers the page itself).
    const page = await request(link.verificationLinkUrl, { method: 'POST' });
    assert.equal(page.statusCode, 200);
    await page.body.dump();
    assert.equal(
      (await sandbox.master.call(api.readUser, { params: { userId: user.id }, masqueradeAs: `user:${user.id}` }))
        .status,
      'PENDING',
    );
    const pendingLimits = await sandbox.master.call(api.calculateLimits, {
      body: { accountId: MASTER.accountId, userId: user.id },
    });
    assert.deepEqual(pendingLimits, standard, 'not approved yet: standard limits');

    await sandbox.op('POST', `/sandbox/users/${user.id}/approve`);
    assert.equal((await sandbox.master.call(api.readUser, { params: { userId: user.id } })).status, 'APPROVED');
    const higher = await sandbox.master.call(api.calculateLimits, {
      body: { accountId: MASTER.accountId, userId: user.id },
    });
    assertFields(higher, { weeklyTotal: '7500', yearlyTotal: '100000' });

    const intl = await sandbox.master.call(api.createUser, {
      body: { fields: { country: 'FR' }, scopes: ['DEBIT_CARD_L2'] },
    });
    await sandbox.op('POST', `/sandbox/users/${intl.id}/approve`);
    const intlLimits = await sandbox.master.call(api.calculateLimits, {
      body: { accountId: MASTER.accountId, userId: intl.id },
    });
    assertFields(intlLimits, { weeklyTotal: '10000', yearlyTotal: '250000' });
  });

  it('the onboarding link is new on every request and stops working after 30 minutes', async () => {
    const user = await sandbox.master.call(api.createUser, { body: {} });
    const firstLink = await sandbox.master.call(api.readOnboardingLink, { params: { userId: user.id } });
    const secondLink = await sandbox.master.call(api.readOnboardingLink, { params: { userId: user.id } });
    assert.notEqual(firstLink.verificationLinkUrl, secondLink.verificationLinkUrl);
    sandbox.clock.now += 30 * 60_000 + 1;
    const expired = await request(firstLink.verificationLinkUrl);
    assert.equal(expired.statusCode, 410);
    await expired.body.dump();
    const fresh = await sandbox.master.call(api.readOnboardingLink, { params: { userId: user.id } });
    const ok = await request(fresh.verificationLinkUrl);
    assert.equal(ok.statusCode, 200);
    await ok.body.dump();
  });

  it('immediate: true returns a PENDING user at once', async () => {
    assert.equal((await sandbox.master.call(api.createUser, { body: { immediate: true } })).status, 'PENDING');
  });
});

describe('reservations and card purchases (docs/provider-contract.md §2.6, §4.3)', () => {
  let sandbox: TestSandbox;
  before(async () => (sandbox = await startSandbox({ reservationTtlMs: 60_000 })));
  after(async () => sandbox?.stop());

  it('a completed purchase becomes a COMPLETED transfer and a deposit to the wallet; the reservation is used once', async () => {
    const wallet = await sandbox.master.call(api.createWallet, { body: { name: 'buyer' } });
    const reserved = await sandbox.master.call(api.reserveOrder, {
      body: {
        sourceAmount: 40,
        sourceCurrency: 'USD',
        destCurrency: 'USD',
        dest: walletSrn(wallet.id),
        redirectUrl: 'https://shop.example.test/ok',
      },
    });
    const done = await sandbox.op<{
      order: { id: string; status: string; transferId: string };
      transaction: { source: string; amount: number };
      redirect: string;
    }>('POST', `/sandbox/reservations/${reserved.reservation}/complete`);
    assert.equal(done.order.status, 'COMPLETE');
    const tf = await sandbox.master.call(api.readTransfer, { params: { transferId: done.order.transferId } });
    assertFields(tf, { status: 'COMPLETED', dest: walletSrn(wallet.id), destAmount: '40' });
    assertFields(done.transaction, { source: `transfer:${tf.id}`, amount: 40 });
    assert.equal(
      (await sandbox.master.call(api.readWallet, { params: { walletId: wallet.id } })).availableBalances.USD,
      '40',
    );
    const redirect = new URL(done.redirect);
    const params = ['transferId', 'orderId', 'accountId', 'dest', 'fees', 'destAmount'];
    assert.deepEqual(
      params.filter((name) => !redirect.searchParams.has(name)),
      [],
      `the redirect carries ${params.join(', ')}`,
    );
    assert.equal(
      (await sandbox.master.call(api.readReservation, { params: { reservationId: reserved.reservation } })).status,
      'USED',
    );
    const again = await sandbox.operator<{ errorCode: string }>(
      'POST',
      `/sandbox/reservations/${reserved.reservation}/complete`,
    );
    assertFields(again, { status: 400, json: { errorCode: 'reservation.alreadyUsed' } });
  });

  it('a reservation expires after its configured lifetime', async () => {
    const reserved = await sandbox.master.call(api.reserveOrder, { body: { sourceAmount: 10, sourceCurrency: 'USD' } });
    sandbox.clock.now += 60_001;
    assert.equal(
      (await sandbox.master.call(api.readReservation, { params: { reservationId: reserved.reservation } })).status,
      'EXPIRED',
    );
    const late = await sandbox.operator<{ errorCode: string }>(
      'POST',
      `/sandbox/reservations/${reserved.reservation}/complete`,
    );
    assert.equal(late.json.errorCode, 'reservation.expired');
  });

  it("a failed purchase is FAILED with its reason; a purchase over the user's limit fails with the limit's code", async () => {
    const reserved = await sandbox.master.call(api.reserveOrder, { body: { sourceAmount: 10, sourceCurrency: 'USD' } });
    const failed = await sandbox.op<{ order: { status: string; failureReason: string } }>(
      'POST',
      `/sandbox/reservations/${reserved.reservation}/fail`,
      { reason: 'card declined' },
    );
    assertFields(failed.order, { status: 'FAILED', failureReason: 'card declined' });

    const user = await sandbox.master.call(api.createUser, { body: { fields: { country: 'US' } } });
    const big = await sandbox.master.call(api.reserveOrder, {
      body: { sourceAmount: 600, sourceCurrency: 'USD', owner: `user:${user.id}` },
    });
    const over = await sandbox.op<{ order: { status: string; failureReason: string } }>(
      'POST',
      `/sandbox/reservations/${big.reservation}/complete`,
    );
    assertFields(over.order, { status: 'FAILED', failureReason: 'limits.dailyLimitReached' });
  });

  it("a reservation for another tenant's user is refused", async () => {
    const other = await startSandbox();
    try {
      const user = await other.master.call(api.createUser, { body: {} });
      await assert.rejects(
        sandbox.master.call(api.reserveOrder, {
          body: { sourceAmount: 5, sourceCurrency: 'USD', owner: `user:${user.id}` },
        }),
        (e: unknown) => e instanceof ProviderError && e.body.type === 'AccessDeniedException',
      );
    } finally {
      await other.stop();
    }
  });
});
