import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { request } from 'undici';
import * as api from '../../src/provider/endpoints.js';
import { ProviderError } from '../../src/provider/errors.js';
import { REVIEWER_NOTES } from '../../src/provider/reviewer-notes.js';
import { MASTER, startSandbox, type TestSandbox } from '../helpers/sandbox.js';

// The state machines of spec 3 and the rules of spec 8, driven by operator routes (the provider's
// reviewers and customers) and observed through the client, as a product using them would.

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('profile fields and accounts (spec 3.2)', () => {
  let t: TestSandbox;
  before(async () => (t = await startSandbox()));
  after(async () => t?.stop());

  it('OPEN → PENDING → rejected OPEN with a note → PENDING → APPROVED, and the account follows', async () => {
    const created = await t.master.call(api.createAccount, {
      body: { country: 'US', profileFields: [{ fieldId: 'individualLegalName', value: 'Ada' }, { fieldId: 'individualDateOfBirth', value: '1815-12-10' }, { fieldId: 'individualResidenceAddress', value: '1 Main St' }, { fieldId: 'individualSsn', value: '000-00-0000' }] },
    });
    const read = () => t.master.call(api.readAccount, { params: { accountId: created.id }, masqueradeAs: created.id });
    const field = async (id: string) => (await read()).profileFields.find((f) => f.fieldId === id)!;
    assert.equal(created.status, 'OPEN', 'documents are still missing');
    assert.deepEqual([(await field('individualGovernmentId')).status, (await field('individualSsn')).status], ['OPEN', 'PENDING']);

    for (const fieldId of ['individualGovernmentId', 'individualProofOfAddress'] as const) {
      await t.master.call(api.uploadDocument, { params: { accountId: created.id, fieldId }, body: { bytes: PNG, contentType: 'image/png' }, masqueradeAs: created.id });
    }
    assert.equal((await read()).status, 'PENDING', 'everything is under review');

    const rejected = await t.op<{ status: string }>('POST', `/sandbox/accounts/${created.id}/fields/individualSsn/reject`, { note: 'ssn.invalid' });
    assert.equal(rejected.status, 'OPEN');
    assert.deepEqual(await field('individualSsn'), { fieldId: 'individualSsn', fieldType: 'STRING', value: '000-00-0000', note: REVIEWER_NOTES['ssn.invalid'].text, status: 'OPEN' });

    await t.master.call(api.updateAccount, { params: { accountId: created.id }, body: { profileFields: [{ fieldId: 'individualSsn', value: '123-45-6789' }] }, masqueradeAs: created.id });
    assert.deepEqual([(await field('individualSsn')).status, (await field('individualSsn')).note], ['PENDING', null]);

    for (const f of ['individualLegalName', 'individualDateOfBirth', 'individualResidenceAddress', 'individualSsn', 'individualGovernmentId', 'individualProofOfAddress']) {
      await t.op('POST', `/sandbox/accounts/${created.id}/fields/${f}/approve`);
    }
    const approved = await read();
    assert.equal(approved.status, 'APPROVED');
    assert.ok(approved.profileFields.filter((f) => f.status !== 'APPROVED').every((f) => f.fieldId === 'individualSourceOfFunds' || f.value === null));

    await t.op('POST', `/sandbox/accounts/${created.id}/close`);
    assert.equal((await read()).status, 'CLOSED');
  });

  it('a rejected image is uploaded again: OPEN with the reviewer\'s note → PENDING with the new document', async () => {
    const acc = await t.master.call(api.createAccount, { body: { country: 'GB' } });
    await t.master.call(api.uploadDocument, { params: { accountId: acc.id, fieldId: 'individualGovernmentId' }, body: { bytes: PNG, contentType: 'image/png' }, masqueradeAs: acc.id });
    await t.op('POST', `/sandbox/accounts/${acc.id}/fields/individualGovernmentId/reject`, { note: 'identity.blurry' });
    let f = (await t.master.call(api.readAccount, { params: { accountId: acc.id }, masqueradeAs: acc.id })).profileFields.find((x) => x.fieldId === 'individualGovernmentId')!;
    assert.deepEqual([f.status, f.note], ['OPEN', 'Image is blurry or hard to read']);
    const again = await t.master.call(api.uploadDocument, { params: { accountId: acc.id, fieldId: 'individualGovernmentId' }, body: { bytes: PNG, contentType: 'image/png' }, masqueradeAs: acc.id });
    f = again.profileFields.find((x) => x.fieldId === 'individualGovernmentId')!;
    assert.deepEqual([f.status, f.note, (f.value as string[]).length], ['PENDING', null, 2]);
  });

  it('operator routes refuse a note about another field, and approving what is not pending; nothing changes', async () => {
    const acc = await t.master.call(api.createAccount, { body: { country: 'US' } });
    const wrong = await t.operator('POST', `/sandbox/accounts/${acc.id}/fields/individualSsn/reject`, { note: 'identity.blurry' });
    assert.equal(wrong.status, 400);
    const unknown = await t.operator('POST', `/sandbox/accounts/${acc.id}/fields/individualSsn/reject`, { note: 'looks.fishy' });
    assert.equal((unknown.json as { problematicField: string }).problematicField, 'note');
    const early = await t.operator('POST', `/sandbox/accounts/${acc.id}/fields/individualSsn/approve`);
    assert.equal(early.status, 400);
    const f = (await t.master.call(api.readAccount, { params: { accountId: acc.id }, masqueradeAs: acc.id })).profileFields.find((x) => x.fieldId === 'individualSsn')!;
    assert.deepEqual([f.status, f.note], ['OPEN', null]);
  });
});

describe('payment methods and the ACH form (spec 3.1)', () => {
  let t: TestSandbox;
  let accountId: string;
  before(async () => {
    t = await startSandbox();
    accountId = (await t.master.call(api.createAccount, { body: { country: 'US' } })).id;
  });
  after(async () => t?.stop());

  const sof = async () => (await t.master.call(api.readAccount, { params: { accountId }, masqueradeAs: accountId })).profileFields.find((f) => f.fieldId === 'individualSourceOfFunds')!;
  const ach = { paymentMethodType: 'LOCAL_TRANSFER' as const, country: 'US', accountNumber: '000987654321', routingNumber: '011000015' };

  it('PENDING → AWAITING_FOLLOWUP (ACH_FORM) → form submitted → APPROVED, with the source of funds following', async () => {
    const pm = await t.master.call(api.createPaymentMethod, { body: ach, masqueradeAs: accountId });
    assert.equal(pm.status, 'PENDING');
    assert.deepEqual([(await sof()).value, (await sof()).status], [pm.id, 'PENDING']);
    const read = () => t.master.call(api.readPaymentMethod, { params: { paymentMethodId: pm.id }, masqueradeAs: accountId });

    await t.op('POST', `/sandbox/payment-methods/${pm.id}/request-ach-form`);
    const waiting = await read();
    assert.equal(waiting.status, 'AWAITING_FOLLOWUP');
    assert.deepEqual(waiting.waitingPrompts.map((p) => [p.id, p.type]), [['ACH_FORM', 'DOCUMENT']]);
    assert.deepEqual([(await sof()).status, (await sof()).note], ['OPEN', 'Additional information is required']);

    await t.master.call(api.submitFollowup, { params: { paymentMethodId: pm.id }, body: { bytes: PNG, contentType: 'image/png' }, masqueradeAs: accountId });
    const submitted = await read();
    assert.deepEqual([submitted.status, submitted.waitingPrompts], ['AWAITING_FOLLOWUP', []]);
    assert.deepEqual([(await sof()).status, (await sof()).note], ['PENDING', 'Payment method is under review']);

    await t.op('POST', `/sandbox/payment-methods/${pm.id}/approve`);
    assert.equal((await read()).status, 'APPROVED');
    assert.deepEqual([(await sof()).status, (await sof()).note], ['APPROVED', null]);
  });

  it('a follow-up nobody asked for is refused with PAYMENT_METHOD_DOESNT_SUPPORT_FOLLOWUPS', async () => {
    const pm = await t.master.call(api.createPaymentMethod, { body: { ...ach, accountNumber: '000111222333' }, masqueradeAs: accountId });
    await assert.rejects(
      t.master.call(api.submitFollowup, { params: { paymentMethodId: pm.id }, body: { bytes: PNG, contentType: 'image/png' }, masqueradeAs: accountId }),
      (e: unknown) => e instanceof ProviderError && e.body.subType === 'PAYMENT_METHOD_DOESNT_SUPPORT_FOLLOWUPS',
    );
  });

  it('REJECTED and ACTIVE; a method that is not the source of funds leaves the account alone', async () => {
    const second = await t.master.call(api.createPaymentMethod, { body: { ...ach, accountNumber: '000444555666' }, masqueradeAs: accountId });
    const before = await sof();
    await t.op('POST', `/sandbox/payment-methods/${second.id}/request-ach-form`);
    await t.op('POST', `/sandbox/payment-methods/${second.id}/reject`, { message: 'Name does not match' });
    const rejected = await t.master.call(api.readPaymentMethod, { params: { paymentMethodId: second.id }, masqueradeAs: accountId });
    assert.deepEqual([rejected.status, rejected.rejectionMessage], ['REJECTED', 'Name does not match']);
    assert.deepEqual(await sof(), before, 'the account reflects only its source of funds');

    const wire = await t.master.call(api.createPaymentMethod, { body: { paymentMethodType: 'WIRE_TRANSFER', country: 'DE', currency: 'EUR', accountNumber: '12345678' } });
    assert.equal(wire.linkType, 'INTERNATIONAL_TRANSFER');
    await t.op('POST', `/sandbox/payment-methods/${wire.id}/activate`);
    assert.equal((await t.master.call(api.readPaymentMethod, { params: { paymentMethodId: wire.id } })).status, 'ACTIVE');
  });

  it('a deposit to an attached address is liquidated to the payment method (spec 2.2 rule 3)', async () => {
    const pm = await t.master.call(api.createPaymentMethod, { body: { ...ach, accountNumber: '000777888999', attachBlockchains: ['ALL'] } });
    const { transfer } = await t.op<{ transfer: { id: string } }>('POST', `/sandbox/payment-methods/${pm.id}/blockchain-deposits`, { currency: 'ETH', amount: 0.3 });
    const tf = await t.master.call(api.readTransfer, { params: { transferId: transfer.id } });
    assert.equal(tf.dest, pm.srn);
    assert.equal(tf.source, `ethereum:${pm.blockchains!.ETH}`);
    assert.equal(tf.status, 'COMPLETED');
  });
});

describe('users, higher limits and the onboarding link (spec 2.7, 2.8, 4.5–4.7, 8)', () => {
  let t: TestSandbox;
  before(async () => (t = await startSandbox()));
  after(async () => t?.stop());

  it('DEBIT_CARD_L2 needs the operator first; then OPEN → PENDING (link opened) → APPROVED, and the higher US limits apply', async () => {
    await assert.rejects(t.master.call(api.createUser, { body: { scopes: ['DEBIT_CARD_L2'] } }), (e: unknown) => e instanceof ProviderError && e.body.errorCode === 'accessDenied.scopeNotConfigured');
    const plain = await t.master.call(api.createUser, { body: { fields: { country: 'US' } } });
    const standard = await t.master.call(api.calculateLimits, { body: { accountId: MASTER.accountId, userId: plain.id } });

    await t.op('POST', `/sandbox/accounts/${MASTER.accountId}/features`, { debitCardL2: true });
    const u = await t.master.call(api.createUser, { body: { fields: { country: 'US' }, scopes: ['DEBIT_CARD_L2'] } });
    assert.equal(u.status, 'OPEN');
    const link = await t.master.call(api.readOnboardingLink, { params: { userId: u.id } });
    const page = await request(link.verificationLinkUrl);
    assert.equal(page.statusCode, 200);
    await page.body.dump();
    assert.equal((await t.master.call(api.readUser, { params: { userId: u.id }, masqueradeAs: `user:${u.id}` })).status, 'PENDING');
    const pendingLimits = await t.master.call(api.calculateLimits, { body: { accountId: MASTER.accountId, userId: u.id } });
    assert.deepEqual(pendingLimits, standard, 'not approved yet: standard limits');

    await t.op('POST', `/sandbox/users/${u.id}/approve`);
    assert.equal((await t.master.call(api.readUser, { params: { userId: u.id } })).status, 'APPROVED');
    const higher = await t.master.call(api.calculateLimits, { body: { accountId: MASTER.accountId, userId: u.id } });
    assert.deepEqual([higher.weeklyTotal, higher.yearlyTotal], [7_500, 100_000]);

    const intl = await t.master.call(api.createUser, { body: { fields: { country: 'FR' }, scopes: ['DEBIT_CARD_L2'] } });
    await t.op('POST', `/sandbox/users/${intl.id}/approve`);
    const intlLimits = await t.master.call(api.calculateLimits, { body: { accountId: MASTER.accountId, userId: intl.id } });
    assert.deepEqual([intlLimits.weeklyTotal, intlLimits.yearlyTotal], [10_000, 250_000]);
  });

  it('the onboarding link is new on every request and stops working after 30 minutes', async () => {
    const u = await t.master.call(api.createUser, { body: {} });
    const a = await t.master.call(api.readOnboardingLink, { params: { userId: u.id } });
    const b = await t.master.call(api.readOnboardingLink, { params: { userId: u.id } });
    assert.notEqual(a.verificationLinkUrl, b.verificationLinkUrl);
    t.clock.now += 30 * 60_000 + 1;
    const expired = await request(a.verificationLinkUrl);
    assert.equal(expired.statusCode, 410);
    await expired.body.dump();
    const fresh = await t.master.call(api.readOnboardingLink, { params: { userId: u.id } });
    const ok = await request(fresh.verificationLinkUrl);
    assert.equal(ok.statusCode, 200);
    await ok.body.dump();
  });

  it('immediate: true returns a PENDING user at once', async () => {
    assert.equal((await t.master.call(api.createUser, { body: { immediate: true } })).status, 'PENDING');
  });
});

describe('reservations and card purchases (spec 2.6, 4.3)', () => {
  let t: TestSandbox;
  before(async () => (t = await startSandbox({ reservationTtlMs: 60_000 })));
  after(async () => t?.stop());

  it('a completed purchase becomes a COMPLETED transfer and a deposit to the wallet; the reservation is used once', async () => {
    const w = await t.master.call(api.createWallet, { body: { name: 'buyer' } });
    const r = await t.master.call(api.reserveOrder, { body: { sourceAmount: 40, sourceCurrency: 'USD', destCurrency: 'USD', dest: `wallet:${w.id}`, redirectUrl: 'https://shop.example.test/ok' } });
    const done = await t.op<{ order: { id: string; status: string; transferId: string }; transaction: { source: string; amount: number }; redirect: string }>('POST', `/sandbox/reservations/${r.reservation}/complete`);
    assert.equal(done.order.status, 'COMPLETE');
    const tf = await t.master.call(api.readTransfer, { params: { transferId: done.order.transferId } });
    assert.deepEqual([tf.status, tf.dest, tf.destAmount], ['COMPLETED', `wallet:${w.id}`, 40]);
    assert.deepEqual([done.transaction.source, done.transaction.amount], [`transfer:${tf.id}`, 40]);
    assert.equal((await t.master.call(api.readWallet, { params: { walletId: w.id } })).availableBalances.USD, 40);
    const redirect = new URL(done.redirect);
    assert.deepEqual(['transferId', 'orderId', 'accountId', 'dest', 'fees', 'destAmount'].map((k) => redirect.searchParams.has(k)), [true, true, true, true, true, true]);
    assert.equal((await t.master.call(api.readReservation, { params: { reservationId: r.reservation } })).status, 'USED');
    const again = await t.operator<{ errorCode: string }>('POST', `/sandbox/reservations/${r.reservation}/complete`);
    assert.deepEqual([again.status, again.json.errorCode], [400, 'reservation.alreadyUsed']);
  });

  it('a reservation expires after its configured lifetime', async () => {
    const r = await t.master.call(api.reserveOrder, { body: { sourceAmount: 10, sourceCurrency: 'USD' } });
    t.clock.now += 60_001;
    assert.equal((await t.master.call(api.readReservation, { params: { reservationId: r.reservation } })).status, 'EXPIRED');
    const late = await t.operator<{ errorCode: string }>('POST', `/sandbox/reservations/${r.reservation}/complete`);
    assert.equal(late.json.errorCode, 'reservation.expired');
  });

  it('a failed purchase is FAILED with its reason; a purchase over the user\'s limit fails with the limit\'s code', async () => {
    const r = await t.master.call(api.reserveOrder, { body: { sourceAmount: 10, sourceCurrency: 'USD' } });
    const failed = await t.op<{ order: { status: string; failureReason: string } }>('POST', `/sandbox/reservations/${r.reservation}/fail`, { reason: 'card declined' });
    assert.deepEqual([failed.order.status, failed.order.failureReason], ['FAILED', 'card declined']);

    const u = await t.master.call(api.createUser, { body: { fields: { country: 'US' } } });
    const big = await t.master.call(api.reserveOrder, { body: { sourceAmount: 600, sourceCurrency: 'USD', owner: `user:${u.id}` } });
    const over = await t.op<{ order: { status: string; failureReason: string } }>('POST', `/sandbox/reservations/${big.reservation}/complete`);
    assert.deepEqual([over.order.status, over.order.failureReason], ['FAILED', 'limits.dailyLimitReached']);
  });

  it('a reservation for another tenant\'s user is refused', async () => {
    const other = await startSandbox();
    try {
      const u = await other.master.call(api.createUser, { body: {} });
      await assert.rejects(t.master.call(api.reserveOrder, { body: { sourceAmount: 5, sourceCurrency: 'USD', owner: `user:${u.id}` } }), (e: unknown) => e instanceof ProviderError && e.body.type === 'AccessDeniedException');
    } finally {
      await other.stop();
    }
  });
});
