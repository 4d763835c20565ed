import { Connection } from '@temporalio/client';
import { request } from 'undici';
import { AchFollowupClient } from '../workflows/ach-followup/client.js';
import { CheckoutClient, CheckoutEndedError } from '../workflows/checkout/client.js';
import { KycClient } from '../workflows/kyc/client.js';
import { OnboardingClient } from '../workflows/onboarding/client.js';
import { claimStoreFromConfig } from '../src/claims/from-config.js';
import { loadConfig } from '../src/config.js';
import * as api from '../src/provider/endpoints.js';
import { providerFromConfig } from '../src/provider/from-config.js';
import { clientFor } from '../src/temporal/connection.js';
import type { TimingInput } from '../workflows/lib/messages.js';
import { historyWriter } from './lib/history-file.js';
import { accountWithProfile, type AccountShape, PNG_DOCUMENT } from './fixtures/account.js';
import { operatorCalls } from './fixtures/operator.js';

// With the stack running as in scripts/record-histories.ts (the fixture payload key):
//   node --import tsx scripts/record-process-histories.ts [story or prefix…]
// records the KYC, checkout, ACH and onboarding paths that the happy stories of
// record-histories.ts leave out (reminders, deadlines, refusals, attempts used up, limits), so
// that a restructuring of those workflows is checked against each. With no argument every story
// runs; `kyc`, `checkout`, `ach` or `onboarding` runs one process's; HISTORY_SUFFIX names the files
// apart as in record-histories.ts.

const config = loadConfig();
const save = await historyWriter(config);
const connection = await Connection.connect(config.temporal.connection);
const client = clientFor(connection, config);
const claims = claimStoreFromConfig(config);
const provider = providerFromConfig(config);
const taskQueue = config.temporal.taskQueue;
const MASTER = config.provider.accountId;

/** Short timings, so that every story ends within seconds. */
const quick: TimingInput = { pollInitialMs: 200, pollMaxMs: 1_000 };
const kycClient = (timing: TimingInput = {}, maxAttemptsPerField?: number) =>
  new KycClient(client, { taskQueue, claims, timing: { ...quick, ...timing }, maxAttemptsPerField });
const achClient = (timing: TimingInput = {}) =>
  new AchFollowupClient(client, { taskQueue, claims, timing: { ...quick, ...timing } });
const onboardingClient = (timing: TimingInput = {}) =>
  new OnboardingClient(client, { taskQueue, timing: { ...quick, ...timing } });
const checkoutClient = (timing: TimingInput = {}) =>
  new CheckoutClient(client, { taskQueue, timing: { ...quick, ...timing } });

const { op: operator } = operatorCalls(config.provider.baseUrl);

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let tries = 0; tries < 300; tries++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function expect(what: string, actual: unknown, wanted: unknown): void {
  if (actual !== wanted) throw new Error(`${what}: ${String(actual)}, not ${String(wanted)}`);
}

/** An account whose fields were all submitted; the reviewer rejects some and approves the rest. */
const kycAccount = (rejected: AccountShape['reject']) =>
  accountWithProfile({ provider, op: operator }, { reject: rejected });

/** Runs `action` while the provider fails the next request to `route` with a 500 it calls not transient; answers its error. */
async function refusedOnce(route: string, action: () => Promise<unknown>): Promise<unknown> {
  await operator('PUT', '/sandbox/knobs/faults', { route, error: 'server', failNext: 1 });
  try {
    await action();
    return null;
  } catch (err) {
    return err;
  } finally {
    await operator('DELETE', '/sandbox/knobs/faults');
  }
}

const awaitingInput = (kyc: KycClient, accountId: string, fieldId: string) =>
  until(
    `${fieldId} to await input`,
    () => kyc.state(accountId),
    (state) => state.fields.some((field) => field.fieldId === fieldId && field.awaiting),
  );

async function wallet(): Promise<string> {
  return (await provider.call(api.createWallet, { body: { name: `history-buyer-${Date.now()}` } })).srn;
}

const purchase = async (orderRef: string, extra: Record<string, unknown> = {}) => ({
  orderRef,
  sourceAmount: 50,
  sourceCurrency: 'USD',
  destCurrency: 'USD',
  dest: await wallet(),
  ...extra,
});

const stories: Record<string, () => Promise<void>> = {
  // Nobody answers: reminders after the quiet time, then EXPIRED at the deadline.
  async 'kyc-reminders-expired'() {
    const accountId = await kycAccount({ individualSsn: 'ssn.invalid' });
    const kyc = kycClient({ reminderAfterMs: 300, deadlineMs: 2_500 });
    await kyc.start(accountId);
    expect('outcome', (await kyc.result(accountId)).outcome, 'EXPIRED');
    if ((await kyc.state(accountId)).reminders < 2) throw new Error('fewer than two reminders');
    save('kyc', 'kyc-reminders-expired', `kyc:${accountId}`);
  },

  // The provider refuses a submission (a 500 it calls not transient): the update fails, no
  // attempt is used up, the end user sends again and the field is approved.
  async 'kyc-refused'() {
    const accountId = await kycAccount({ individualSsn: 'ssn.invalid' });
    const kyc = kycClient();
    await kyc.start(accountId);
    await awaitingInput(kyc, accountId, 'individualSsn');
    const refused = await refusedOnce('POST /v3/accounts/:accountId', () =>
      kyc.submitValue(accountId, 'individualSsn', '123-45-6789'),
    );
    if (!refused) throw new Error('the submission was not refused');
    await awaitingInput(kyc, accountId, 'individualSsn');
    expect(
      'status after sending again',
      (await kyc.submitValue(accountId, 'individualSsn', '123-45-6789')).status,
      'PENDING',
    );
    await operator('POST', `/sandbox/accounts/${accountId}/fields/individualSsn/approve`);
    expect('outcome', (await kyc.result(accountId)).outcome, 'APPROVED');
    save('kyc', 'kyc-refused', `kyc:${accountId}`);
  },

  // A document rejected after each of its two allowed attempts: ATTEMPTS_EXHAUSTED.
  async 'kyc-attempts-exhausted'() {
    const accountId = await kycAccount({ individualGovernmentId: 'identity.blurry' });
    const kyc = kycClient({}, 2);
    await kyc.start(accountId);
    for (const note of ['identity.fourCorners', 'identity.expired']) {
      await awaitingInput(kyc, accountId, 'individualGovernmentId');
      await kyc.submitDocument(accountId, 'individualGovernmentId', {
        ...PNG_DOCUMENT,
        documentType: 'PASSPORT',
        documentSubType: 'FRONT',
      });
      await operator('POST', `/sandbox/accounts/${accountId}/fields/individualGovernmentId/reject`, { note });
    }
    expect('outcome', (await kyc.result(accountId)).outcome, 'ATTEMPTS_EXHAUSTED');
    save('kyc', 'kyc-attempts-exhausted', `kyc:${accountId}`);
  },

  // The provider closes the account while the end user owes input: CLOSED.
  async 'kyc-closed'() {
    const accountId = await kycAccount({ individualSsn: 'ssn.invalid' });
    const kyc = kycClient();
    await kyc.start(accountId);
    await awaitingInput(kyc, accountId, 'individualSsn');
    await operator('POST', `/sandbox/accounts/${accountId}/close`);
    expect('outcome', (await kyc.result(accountId)).outcome, 'CLOSED');
    save('kyc', 'kyc-closed', `kyc:${accountId}`);
  },

  // The limits are checked, then the provider refuses the reservation: FAILED without a page.
  async 'checkout-refused'() {
    const user = await provider.call(api.createUser, { body: { fields: { country: 'US' } } });
    const orderRef = `history-refused-${Date.now()}`;
    const order = await purchase(orderRef, { userId: user.id });
    const ended = await refusedOnce('POST /v3/orders/reserve', () => checkoutClient().startAndGetPage(order));
    if (!(ended instanceof CheckoutEndedError))
      throw new Error(`the checkout did not end without a page: ${String(ended)}`);
    expect('outcome', (await checkoutClient().result(orderRef)).outcome, 'FAILED');
    save('checkout', 'checkout-refused', `checkout:${orderRef}`);
  },

  // Higher limits awaited, never approved before the deadline: NOT_APPROVED.
  async 'checkout-not-approved'() {
    await operator('POST', `/sandbox/accounts/${MASTER}/features`, { debitCardL2: true });
    const user = await provider.call(api.createUser, {
      body: { fields: { country: 'US' }, scopes: ['DEBIT_CARD_L2'] },
    });
    const orderRef = `history-not-approved-${Date.now()}`;
    const checkout = checkoutClient({ deadlineMs: 2_000 });
    await checkout
      .startAndGetPage(await purchase(orderRef, { userId: user.id, requireHigherLimits: true }))
      .catch((err: unknown) => {
        if (!(err instanceof CheckoutEndedError)) throw err;
      });
    expect('outcome', (await checkout.result(orderRef)).outcome, 'NOT_APPROVED');
    save('checkout', 'checkout-not-approved', `checkout:${orderRef}`);
  },

  // The amount is over the user's standard limits: OVER_LIMIT before reserving.
  async 'checkout-over-limit'() {
    const user = await provider.call(api.createUser, { body: { fields: { country: 'US' } } });
    const orderRef = `history-over-limit-${Date.now()}`;
    await checkoutClient()
      .startAndGetPage(await purchase(orderRef, { userId: user.id, sourceAmount: 600 }))
      .catch((err: unknown) => {
        if (!(err instanceof CheckoutEndedError)) throw err;
      });
    expect('outcome', (await checkoutClient().result(orderRef)).outcome, 'OVER_LIMIT');
    save('checkout', 'checkout-over-limit', `checkout:${orderRef}`);
  },

  // The provider refuses the purchase itself over a limit (the buyer paid more than the daily
  // limit allows): the order FAILED with a limits.* reason, an OVER_LIMIT outcome.
  async 'checkout-over-limit-purchase'() {
    const orderRef = `history-over-limit-purchase-${Date.now()}`;
    const checkout = checkoutClient();
    const page = await checkout.startAndGetPage(await purchase(orderRef));
    await operator('POST', `/sandbox/reservations/${page.reservation}/complete`, { amount: 600 });
    expect('outcome', (await checkout.result(orderRef)).outcome, 'OVER_LIMIT');
    save('checkout', 'checkout-over-limit-purchase', `checkout:${orderRef}`);
  },

  // The card is declined, and the backend reports the failure redirect: the checkout looks at
  // once (its polls are minutes apart) and ends FAILED.
  async 'checkout-failed'() {
    const orderRef = `history-failed-${Date.now()}`;
    const checkout = checkoutClient({ pollInitialMs: 120_000, pollMaxMs: 120_000 });
    const page = await checkout.startAndGetPage(await purchase(orderRef));
    await until(
      'the purchase to be awaited',
      () => checkout.state(orderRef),
      (state) => state.stage === 'WAITING_FOR_PURCHASE',
    );
    const { order } = await operator<{ order: { id: string } }>(
      'POST',
      `/sandbox/reservations/${page.reservation}/fail`,
      { reason: 'The card was declined' },
    );
    expect(
      'order status seen',
      (await checkout.purchaseRedirect(orderRef, { orderId: order.id })).orderStatus,
      'FAILED',
    );
    expect('outcome', (await checkout.result(orderRef)).outcome, 'FAILED');
    save('checkout', 'checkout-failed', `checkout:${orderRef}`);
  },

  // Nobody buys before the checkout's own deadline: EXPIRED.
  async 'checkout-expired'() {
    const orderRef = `history-expired-${Date.now()}`;
    const checkout = checkoutClient({ deadlineMs: 2_000 });
    await checkout.startAndGetPage(await purchase(orderRef));
    expect('outcome', (await checkout.result(orderRef)).outcome, 'EXPIRED');
    save('checkout', 'checkout-expired', `checkout:${orderRef}`);
  },

  // The form is awaited through two quiet times (a reminder each), then handed in and approved.
  async 'ach-reminders'() {
    const account = await provider.call(api.createAccount, { body: { country: 'US' } });
    const method = await provider.call(api.createPaymentMethod, {
      body: { paymentMethodType: 'LOCAL_TRANSFER', country: 'US', accountNumber: '000123456789' },
      masqueradeAs: account.id,
    });
    await operator('POST', `/sandbox/payment-methods/${method.id}/request-ach-form`);
    const ach = achClient({ reminderAfterMs: 300 });
    await ach.start({ paymentMethodId: method.id, accountId: account.id });
    await until(
      'two reminders for the form',
      () => ach.state(method.id),
      (state) => state.reminders >= 2,
    );
    await ach.submitForm(method.id, PNG_DOCUMENT);
    await operator('POST', `/sandbox/payment-methods/${method.id}/approve`);
    expect('outcome', (await ach.result(method.id)).outcome, 'APPROVED');
    save('ach-followup', 'ach-reminders', `ach-followup:${method.id}`);
  },

  // Reminders while the user owes the verification; after the link is used the user is under
  // review for several quiet times (no reminder then), and is approved.
  async 'onboarding-reminders'() {
    await operator('POST', `/sandbox/accounts/${MASTER}/features`, { debitCardL2: true });
    const userRef = `history-reminders-${Date.now()}`;
    const onboarding = onboardingClient({ reminderAfterMs: 300 });
    await onboarding.start({ userRef, country: 'US' });
    await until(
      'two reminders for the verification',
      () => onboarding.state(userRef),
      (state) => state.reminders >= 2,
    );
    await (await request(await onboarding.onboardingLink(userRef), { method: 'POST' })).body.dump();
    const { userId } = await until(
      'the review',
      () => onboarding.state(userRef),
      (state) => state.stage === 'UNDER_REVIEW',
    );
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    await operator('POST', `/sandbox/users/${userId}/approve`);
    expect('outcome', (await onboarding.result(userRef)).outcome, 'APPROVED');
    save('onboarding', 'onboarding-reminders', `onboarding:${userRef}`);
  },
};

const wanted = process.argv.slice(2);
const chosen = Object.keys(stories).filter(
  (name) => wanted.length === 0 || wanted.some((arg) => name === arg || name.startsWith(`${arg}-`)),
);
if (chosen.length === 0)
  throw new Error(`no story matches ${wanted.join(' ')}; stories: ${Object.keys(stories).join(', ')}`);
try {
  for (const name of chosen) {
    console.log(`story ${name}`);
    await stories[name]!();
  }
} finally {
  await provider.close();
  await connection.close();
}
