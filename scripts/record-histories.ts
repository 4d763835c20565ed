import { Connection } from '@temporalio/client';
import { request } from 'undici';
import { createClients } from '../src/client/index.js';
import { claimStoreFromConfig } from '../src/claims/from-config.js';
import { loadConfig } from '../src/config.js';
import { clientFor } from '../src/temporal/connection.js';
import { generateClientSecret } from '../src/provider/client-token.js';
import * as api from '../src/provider/endpoints.js';
import { providerFromConfig } from '../src/provider/from-config.js';
import { walletSrn } from '../src/provider/srn.js';
import { callbackSignature } from '../src/provider/signing.js';
import { providerCredentials } from '../src/required-settings.js';
import { AchFollowupClient } from '../workflows/ach-followup/client.js';
import { CheckoutClient, CheckoutEndedError } from '../workflows/checkout/client.js';
import { KycClient } from '../workflows/kyc/client.js';
import type { TimingInput } from '../workflows/lib/messages.js';
import { OnboardingClient } from '../workflows/onboarding/client.js';
import { openWalletWorkflowId, walletWorkflowId } from '../workflows/wallet/messages.js';
import { sleep, until } from './lib/child.js';
import { type HistoryProcess, historyWriter } from './lib/history-file.js';
import {
  accountWithProfile,
  type AccountShape,
  achPaymentMethod,
  DOCUMENT_FIELDS,
  PNG_DOCUMENT,
} from './fixtures/account.js';
import { operatorCalls } from './fixtures/operator.js';

// With the stack running as
//   PAYLOAD_ENCRYPTION_KEY=$(cat test/histories/payload-key.txt) WALLET_POLL_INTERVAL=500ms WALLET_POLL_MAX=2s npm run dev
// `node --import tsx scripts/record-histories.ts [process, story or story prefix…]`, with the same key, drives each
// process's stories (its happy path and its other paths: reminders, deadlines, refusals, attempts used up, limits)
// and writes their histories to test/histories/<process>/ (lib/history-file.ts), which `npm run replay` and the
// replay test replay against every later change. Run it again, and commit the files, when a workflow changes on
// purpose in a way that running workflows can take (or after they have all finished).

const config = loadConfig();
const save = await historyWriter(config);
const connection = await Connection.connect(config.temporal.connection);
const client = clientFor(connection, config);
const claims = claimStoreFromConfig(config);
const provider = providerFromConfig(config);
const taskQueue = config.temporal.taskQueue;
const MASTER = config.provider.accountId;
const { op } = operatorCalls(config.provider.baseUrl);
const sandbox = { provider, op };

/** Short timings, so that every story ends within seconds. */
const quick: TimingInput = { pollInitialMs: 200, pollMaxMs: 1_000 };
const clients = createClients(client, config, claims, quick);
const kycClient = (timing: TimingInput = {}, maxAttemptsPerField?: number) =>
  new KycClient(client, { taskQueue, claims, timing: { ...quick, ...timing }, maxAttemptsPerField });
const achClient = (timing: TimingInput = {}) =>
  new AchFollowupClient(client, { taskQueue, claims, timing: { ...quick, ...timing } });
const onboardingClient = (timing: TimingInput = {}) =>
  new OnboardingClient(client, { taskQueue, timing: { ...quick, ...timing } });
const checkoutClient = (timing: TimingInput = {}) =>
  new CheckoutClient(client, { taskQueue, timing: { ...quick, ...timing } });

function expect(what: string, actual: unknown, wanted: unknown): void {
  if (actual !== wanted) throw new Error(`${what}: ${String(actual)}, not ${String(wanted)}`);
}

/** An account whose fields were all submitted; the reviewer rejects some and approves the rest. */
const kycAccount = (rejected: AccountShape['reject']) => accountWithProfile(sandbox, { reject: rejected });

/** Runs `action` while the provider fails the next request to `route` with a 500 it calls not transient; answers its error. */
async function refusedOnce(route: string, action: () => Promise<unknown>): Promise<unknown> {
  await op('PUT', '/sandbox/knobs/faults', { route, error: 'server', failNext: 1 });
  try {
    await action();
    return null;
  } catch (err) {
    return err;
  } finally {
    await op('DELETE', '/sandbox/knobs/faults');
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

const endedWithoutPage = (err: unknown) => {
  if (!(err instanceof CheckoutEndedError)) throw err;
};

/**
 * Posts a signed callback of a BTC transaction to `walletId` to the ingress, as the provider
 * would; the amount is written as JSON text, so that one with more digits than a double holds
 * arrives whole. Answers the ingress's status.
 */
async function callback(walletId: string, id: string, status: string, amount: string, createdAt: number) {
  const body = JSON.stringify({
    id,
    createdAt,
    source: 'bitcoin:EXTERNAL',
    dest: walletSrn(walletId),
    currency: 'BTC',
    amount: '<amount>',
    status,
    metadata: {},
    tags: [],
  }).replace('"<amount>"', amount);
  const answer = await request(`${config.ingress.publicUrl}/callbacks`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-api-signature': callbackSignature(providerCredentials(config).secretKey, Buffer.from(body)),
    },
    body,
  });
  await answer.body.dump();
  console.log(`callback ${id} ${status}: ${answer.statusCode}`);
  return answer.statusCode;
}

// The ledger a wallet's run carried across continue-as-new in an earlier shape: a run started from
// it, given callbacks and a repeat, proves that later code still replays runs that carry that shape.
// v1: evicted ids and totals; v2: settled records with amounts, amounts as numbers.
const FAR_FUTURE = 4_000_000_000_000; // 2096: a time that cannot be one (a createdAt in the wrong unit)
const carriedEntries = {
  TR_CARRIEDPEND1: {
    id: 'TR_CARRIEDPEND1',
    currency: 'BTC',
    amount: 2,
    status: 'PENDING',
    kind: 'deposit',
    source: 'bitcoin:EXTERNAL',
    createdAt: 1_700_000_000_000,
    firstSeenVia: 'callback',
  },
  TR_CARRIEDCONF1: {
    id: 'TR_CARRIEDCONF1',
    currency: 'BTC',
    amount: 1,
    status: 'CONFIRMED',
    kind: 'deposit',
    source: 'bitcoin:EXTERNAL',
    createdAt: 1_700_000_100_000,
    confirmedAt: 1_700_000_200_000,
    firstSeenVia: 'poll',
  },
};
const carriedShapes = {
  v1: (walletId: string) => ({
    carried: {
      walletId,
      entries: carriedEntries,
      order: ['TR_CARRIEDPEND1', 'TR_CARRIEDCONF1'],
      settledIds: ['TR_CARRIEDOLD1', 'TR_CARRIEDOLD2'],
      settledTotals: { BTC: 3.5, USD: 20 },
      stats: { callbacks: 5, duplicates: 1, stale: 0, polls: 9, recoveredByPoll: 1 },
    },
  }),
  // Also a horizon and a poll cursor moved past now by such a time, which the new code moves back.
  v2: (walletId: string) => ({
    carried: {
      version: 2,
      walletId,
      entries: carriedEntries,
      order: ['TR_CARRIEDPEND1', 'TR_CARRIEDCONF1'],
      settled: {
        TR_CARRIEDOLD1: ['BTC', 0.1, 'CONFIRMED', 1_699_000_000_000],
        TR_CARRIEDOLD2: ['USD', 20, 'CONFIRMED', 1_699_000_100_000],
      },
      horizon: FAR_FUTURE - 180 * 86_400_000,
      settledTotals: { BTC: 3.5, USD: 20 },
      stats: { callbacks: 5, duplicates: 1, stale: 0, polls: 9, recoveredByPoll: 1, expired: 0, rejected: 0 },
    },
    pollCursor: { since: FAR_FUTURE, seen: [] },
  }),
};

async function walletCarried(label: keyof typeof carriedShapes) {
  // A wallet at the provider, so that the run's polls find it.
  const walletId = (await provider.call(api.createWallet, { body: { name: `carried-${Date.now()}` } })).id;
  const workflowId = walletWorkflowId(walletId);
  await client.workflow.start('walletWorkflow', {
    workflowId,
    taskQueue,
    args: [{ walletId, pollIntervalMs: 2_000, inbox: [], ...carriedShapes[label](walletId) }],
  });
  const confirmed = (id: string) => callback(walletId, id, 'CONFIRMED', '2', 1_700_000_300_000);
  await confirmed('TR_CARRIEDPEND1');
  await confirmed('TR_CARRIEDOLD1');
  await confirmed('TR_CARRIEDOLD1');
  if (label !== 'v1') await callback(walletId, 'TR_CARRIEDFUTURE1', 'CONFIRMED', '1.000000000000000001', FAR_FUTURE);
  await sleep(5_000);
  save('wallet', `wallet-carried-${label}`, workflowId);
  await client.workflow.getHandle(workflowId).terminate('history recorded');
}

type Deposit = { transaction: { id: string } };
let onboarded: Promise<string> | undefined;

/** The happy onboarding, recorded; the checkout's buyer is its user. Runs once. */
const onboardedUser = () =>
  (onboarded ??= (async () => {
    await op('POST', `/sandbox/accounts/${MASTER}/features`, { debitCardL2: true });
    const userRef = `history-${Date.now()}`;
    await clients.onboarding.start({ userRef, country: 'US' });
    const { userId } = await until(
      'the user',
      () => clients.onboarding.state(userRef),
      (state) => Boolean(state.userId),
    );
    const link = await clients.onboarding.onboardingLink(userRef);
    await (await request(link, { method: 'POST' })).body.dump();
    await op('POST', `/sandbox/users/${userId}/approve`);
    await clients.onboarding.result(userRef);
    save('onboarding', 'onboarding', `onboarding:${userRef}`);
    return userId!;
  })());

const stories: Record<HistoryProcess, Record<string, () => Promise<void>>> = {
  wallet: {
    // Opened, a deposit pending then confirmed, a repeat, an interest payout, some polls.
    async wallet() {
      const name = `history-${Date.now()}`;
      const opened = await clients.wallets.open({ name });
      const deposit = await op<Deposit>('POST', `/sandbox/wallets/${opened.walletId}/deposits`, {
        currency: 'BTC',
        amount: 0.5,
      });
      await sleep(500);
      await op('POST', `/sandbox/transactions/${deposit.transaction.id}/confirm`);
      await op('POST', `/sandbox/transactions/${deposit.transaction.id}/resend-callback`);
      await op('POST', `/sandbox/wallets/${opened.walletId}/interest-payouts`, { currency: 'USD', amount: 2 });
      await sleep(4_500);
      // A callback lost on the way: the next poll finds its deposit.
      await op('PUT', '/sandbox/knobs/callbacks', { drop: 1 });
      await op('POST', `/sandbox/wallets/${opened.walletId}/deposits`, {
        currency: 'BTC',
        amount: 0.25,
        confirmed: true,
      });
      await sleep(6_000);
      save('wallet', 'open-wallet', openWalletWorkflowId(name));
      save('wallet', 'wallet', opened.walletWorkflowId);
      await client.workflow.getHandle(opened.walletWorkflowId).terminate('history recorded');
    },

    // A run that continues as new once its history is long: the first run is recorded.
    async 'wallet-continued'() {
      const rolled = await clients.wallets.open({ name: `history-rolled-${Date.now()}` });
      const handle = client.workflow.getHandle(rolled.walletWorkflowId);
      await handle.terminate('restarted with a short history limit');
      const rolling = await client.workflow.start('walletWorkflow', {
        workflowId: rolled.walletWorkflowId,
        taskQueue,
        args: [
          {
            walletId: rolled.walletId,
            pollIntervalMs: config.wallet.pollIntervalMs,
            pollMaxMs: config.wallet.pollMaxMs,
            maxHistoryEvents: 60,
          },
        ],
      });
      for (let deposits = 0; deposits < 25; deposits++)
        await op('POST', `/sandbox/wallets/${rolled.walletId}/deposits`, {
          currency: 'ETH',
          amount: 1,
          confirmed: true,
        });
      while ((await handle.describe()).runId === rolling.firstExecutionRunId) await sleep(200);
      save('wallet', 'wallet-continued', rolled.walletWorkflowId, rolling.firstExecutionRunId);
      await handle.terminate('history recorded');
    },

    // A signed callback for a wallet the provider does not know: its follower counts it, polls, and
    // ends UNKNOWN_WALLET.
    async 'wallet-unknown'() {
      const walletId = `WA_UNKNOWN${Date.now()}`;
      const status = await callback(walletId, `TR_UNKNOWN${Date.now()}`, 'CONFIRMED', '0.5', Date.now());
      if (status !== 200) throw new Error(`the ingress answered ${status}`);
      await client.workflow.getHandle(walletWorkflowId(walletId)).result();
      save('wallet', 'wallet-unknown', walletWorkflowId(walletId));
    },

    'wallet-carried-v1': () => walletCarried('v1'),
    'wallet-carried-v2': () => walletCarried('v2'),
  },

  'ach-followup': {
    // The form awaited, submitted, approved.
    async 'ach-followup'() {
      const { accountId, paymentMethodId } = await achPaymentMethod(sandbox);
      await clients.achFollowup.start({ paymentMethodId, accountId });
      await until(
        'the form to be awaited',
        () => clients.achFollowup.state(paymentMethodId),
        (state) => state.stage === 'WAITING_FOR_FORM',
      );
      await clients.achFollowup.submitForm(paymentMethodId, PNG_DOCUMENT);
      await op('POST', `/sandbox/payment-methods/${paymentMethodId}/approve`);
      await clients.achFollowup.result(paymentMethodId);
      save('ach-followup', 'ach-followup', `ach-followup:${paymentMethodId}`);
    },

    // The form is awaited through two quiet times (a reminder each), then handed in and approved.
    async 'ach-reminders'() {
      const { accountId, paymentMethodId } = await achPaymentMethod(sandbox);
      const ach = achClient({ reminderAfterMs: 300 });
      await ach.start({ paymentMethodId, accountId });
      await until(
        'two reminders for the form',
        () => ach.state(paymentMethodId),
        (state) => state.reminders >= 2,
      );
      await ach.submitForm(paymentMethodId, PNG_DOCUMENT);
      await op('POST', `/sandbox/payment-methods/${paymentMethodId}/approve`);
      expect('outcome', (await ach.result(paymentMethodId)).outcome, 'APPROVED');
      save('ach-followup', 'ach-reminders', `ach-followup:${paymentMethodId}`);
    },
  },

  provisioning: {
    // A token registered and its account created.
    async provisioning() {
      const clientRef = `history-${Date.now()}`;
      await clients.provisioning.start({ clientRef, country: 'DE', secret: generateClientSecret() });
      await clients.provisioning.result(clientRef);
      save('provisioning', 'provisioning', `provision:${clientRef}`);
    },
  },

  kyc: {
    // The SSN sent back, resubmitted by reference, approved. The account has only its SSN
    // submitted, and that sent back; the rest comes while the process runs.
    async kyc() {
      const accountId = await accountWithProfile(sandbox, {
        submit: ['individualSsn'],
        reject: { individualSsn: 'ssn.invalid' },
      });
      await clients.kyc.start(accountId);
      await until(
        'a field to await input',
        () => clients.kyc.state(accountId),
        (state) => state.fields.some((field) => field.awaiting),
      );
      await clients.kyc.submitValue(accountId, 'individualSsn', '123-45-6789');
      await sleep(500);
      const { profileFields } = await provider.call(api.readAccount, {
        params: { accountId },
        masqueradeAs: accountId,
      });
      for (const field of profileFields.filter((f) => f.status === 'PENDING'))
        await op('POST', `/sandbox/accounts/${accountId}/fields/${field.fieldId}/approve`);
      for (const fieldId of DOCUMENT_FIELDS)
        await provider.call(api.uploadDocument, {
          params: { accountId, fieldId },
          body: PNG_DOCUMENT,
          masqueradeAs: accountId,
        });
      const valueFields = ['individualLegalName', 'individualDateOfBirth', 'individualResidenceAddress'];
      for (const fieldId of valueFields) {
        await provider.call(api.updateAccount, {
          params: { accountId },
          body: { profileFields: [{ fieldId, value: 'x' }] },
          masqueradeAs: accountId,
        });
      }
      for (const fieldId of [...valueFields, ...DOCUMENT_FIELDS])
        await op('POST', `/sandbox/accounts/${accountId}/fields/${fieldId}/approve`);
      await clients.kyc.result(accountId);
      save('kyc', 'kyc', `kyc:${accountId}`);
    },

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
      await op('POST', `/sandbox/accounts/${accountId}/fields/individualSsn/approve`);
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
        await op('POST', `/sandbox/accounts/${accountId}/fields/individualGovernmentId/reject`, { note });
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
      await op('POST', `/sandbox/accounts/${accountId}/close`);
      expect('outcome', (await kyc.result(accountId)).outcome, 'CLOSED');
      save('kyc', 'kyc-closed', `kyc:${accountId}`);
    },
  },

  onboarding: {
    // The user created, the link used, the user approved.
    async onboarding() {
      await onboardedUser();
    },

    // Reminders while the user owes the verification; after the link is used the user is under
    // review for several quiet times (no reminder then), and is approved.
    async 'onboarding-reminders'() {
      await op('POST', `/sandbox/accounts/${MASTER}/features`, { debitCardL2: true });
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
      await sleep(1_200);
      await op('POST', `/sandbox/users/${userId}/approve`);
      expect('outcome', (await onboarding.result(userRef)).outcome, 'APPROVED');
      save('onboarding', 'onboarding-reminders', `onboarding:${userRef}`);
    },
  },

  checkout: {
    // A purchase with higher limits, by the user the happy onboarding approved (recorded with it).
    async checkout() {
      const userId = await onboardedUser();
      const orderRef = `history-${Date.now()}`;
      const page = await clients.checkout.startAndGetPage(
        await purchase(orderRef, { sourceAmount: 100, userId, requireHigherLimits: true }),
      );
      await op('POST', `/sandbox/reservations/${page.reservation}/complete`);
      await clients.checkout.result(orderRef);
      save('checkout', 'checkout', `checkout:${orderRef}`);
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
      await op('POST', `/sandbox/accounts/${MASTER}/features`, { debitCardL2: true });
      const user = await provider.call(api.createUser, {
        body: { fields: { country: 'US' }, scopes: ['DEBIT_CARD_L2'] },
      });
      const orderRef = `history-not-approved-${Date.now()}`;
      const checkout = checkoutClient({ deadlineMs: 2_000 });
      await checkout
        .startAndGetPage(await purchase(orderRef, { userId: user.id, requireHigherLimits: true }))
        .catch(endedWithoutPage);
      expect('outcome', (await checkout.result(orderRef)).outcome, 'NOT_APPROVED');
      save('checkout', 'checkout-not-approved', `checkout:${orderRef}`);
    },

    // The amount is over the user's standard limits: OVER_LIMIT before reserving.
    async 'checkout-over-limit'() {
      const user = await provider.call(api.createUser, { body: { fields: { country: 'US' } } });
      const orderRef = `history-over-limit-${Date.now()}`;
      await checkoutClient()
        .startAndGetPage(await purchase(orderRef, { userId: user.id, sourceAmount: 600 }))
        .catch(endedWithoutPage);
      expect('outcome', (await checkoutClient().result(orderRef)).outcome, 'OVER_LIMIT');
      save('checkout', 'checkout-over-limit', `checkout:${orderRef}`);
    },

    // The provider refuses the purchase itself over a limit (the buyer paid more than the daily
    // limit allows): the order FAILED with a limits.* reason, an OVER_LIMIT outcome.
    async 'checkout-over-limit-purchase'() {
      const orderRef = `history-over-limit-purchase-${Date.now()}`;
      const checkout = checkoutClient();
      const page = await checkout.startAndGetPage(await purchase(orderRef));
      await op('POST', `/sandbox/reservations/${page.reservation}/complete`, { amount: 600 });
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
      const { order } = await op<{ order: { id: string } }>('POST', `/sandbox/reservations/${page.reservation}/fail`, {
        reason: 'The card was declined',
      });
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
  },
};

// Earlier ledger shapes are recorded only when named: they stand for runs of code long replaced.
const onRequest = (name: string) => name.startsWith('wallet-carried-');
const wanted = process.argv.slice(2);
const all = Object.entries(stories).flatMap(([processName, named]) =>
  Object.entries(named).map(([name, story]) => ({ processName, name, story })),
);
const chosen = all.filter(({ processName, name }) =>
  wanted.length === 0
    ? !onRequest(name)
    : wanted.some((arg) => arg === name || (!onRequest(name) && (arg === processName || name.startsWith(`${arg}-`)))),
);
if (chosen.length === 0)
  throw new Error(`no story matches ${wanted.join(' ')}; stories: ${all.map(({ name }) => name).join(', ')}`);
try {
  for (const { name, story } of chosen) {
    console.log(`story ${name}`);
    await story();
  }
} finally {
  await provider.close();
  await connection.close();
}
