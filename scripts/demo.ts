import { request } from 'undici';
import {
  AlreadyFinishedError,
  CheckoutEndedError,
  ClaimStoreError,
  createClients,
  type Clients,
  InputRejectedError,
  NotDeliveredError,
  ProcessNotFoundError,
  ProviderRefusedError,
} from '../src/client/index.js';
import { compare } from '../src/decimal.js';
import { claimStoreFromConfig } from '../src/claims/from-config.js';
import type { Config } from '../src/config.js';
import { startupConfig } from '../src/required-settings.js';
import { clientFor } from '../src/temporal/connection.js';
import { providerFromConfig } from '../src/provider/from-config.js';
import { generateClientSecret } from '../src/provider/client-token.js';
import * as api from '../src/provider/endpoints.js';
import { walletSrn } from '../src/provider/srn.js';
import { accountWithProfile, achPaymentMethod, PNG_DOCUMENT } from './fixtures/account.js';
import { operatorCalls } from './fixtures/operator.js';
import { until } from './lib/child.js';
import { reachClaimStore, reachSandbox, reachTemporal } from './lib/reach.js';

// `npm run demo` (with `npm run dev` running, or `npm run cluster` and its client.env): every
// process end to end against the sandbox, played by its operator routes, with progress as it goes.
// The workflows stay in the Temporal UI. What it needs and cannot reach (Temporal, the claim store,
// the sandbox) ends it with one line naming what to set; so does a failure the client names.

// A client of the deployment: the settings it lacks are named (EX_CONFIG), as a backend's would be.
const config = startupConfig('client');
const say = (line: string) => console.log(`[demo] ${line}`);
const stamp = new Date()
  .toISOString()
  .replace(/[-:.TZ]/g, '')
  .slice(0, 14);
const provider = providerFromConfig(config);
const { op } = operatorCalls(config.provider.baseUrl);
/** The provider's reviewers and customers, played through the sandbox's operator routes. */
const operator = <T = Record<string, unknown>>(path: string, body: unknown = {}) => op<T>('POST', path, body);

async function wallet(clients: Clients) {
  say('— Wallet and deposits');
  const opened = await clients.wallets.open({ name: `demo-${stamp}`, type: 'SAVINGS' });
  const { walletId } = opened;
  say(`wallet ${walletId}; BTC deposit address ${opened.depositAddresses.BTC}`);
  const { transaction } = await operator<{ transaction: { id: string } }>(`/sandbox/wallets/${walletId}/deposits`, {
    currency: 'BTC',
    amount: 0.05,
  });
  let state = await until(
    'the pending deposit',
    () => clients.wallets.state(walletId),
    (v) => v.balances.BTC?.pending === '0.05',
  );
  say(
    `a 0.05 BTC deposit is pending: confirmed ${state.balances.BTC!.confirmed}, pending ${state.balances.BTC!.pending}`,
  );
  await operator(`/sandbox/transactions/${transaction.id}/confirm`);
  await operator(`/sandbox/transactions/${transaction.id}/resend-callback`);
  state = await until(
    'the confirmation',
    () => clients.wallets.state(walletId),
    (v) => v.balances.BTC?.confirmed === '0.05' && v.stats.duplicates >= 1,
  );
  say(
    `confirmed, and the repeated callback ignored: confirmed ${state.balances.BTC!.confirmed} BTC, duplicates ${state.stats.duplicates}`,
  );
  await operator(`/sandbox/wallets/${walletId}/interest-payouts`, { currency: 'USD', amount: 1.23 });
  state = await until(
    'the interest payout',
    () => clients.wallets.state(walletId),
    (v) => v.recentTransactions.some((t) => t.kind === 'interest'),
  );
  say(`interest payout recognised: USD ${state.balances.USD!.confirmed}`);
  return walletId;
}

async function kyc(clients: Clients) {
  say('— KYC resubmission');
  const resubmitted = ['individualSsn', 'individualGovernmentId'] as const;
  const accountId = await accountWithProfile(
    { provider, op },
    { reject: { individualSsn: 'ssn.invalid', individualGovernmentId: 'identity.blurry' } },
  );
  say(`account ${accountId}: the reviewer sends back the SSN and the identity image, and approves the rest`);
  await clients.kyc.start(accountId);
  const waiting = await until(
    'the fields to be asked for',
    () => clients.kyc.state(accountId),
    (s) => s.fields.filter((f) => f.awaiting).length === resubmitted.length,
  );
  for (const field of waiting.fields.filter((f) => f.awaiting))
    say(`  ${field.fieldId}: ${field.reason?.message ?? field.note}`);
  await clients.kyc.submitValue(accountId, 'individualSsn', '123-45-6789');
  await clients.kyc.submitDocument(accountId, 'individualGovernmentId', PNG_DOCUMENT);
  say('the end user resubmits both (the SSN travels by reference: it never enters workflow history)');
  for (const fieldId of resubmitted) {
    await until(
      `${fieldId} to be under review`,
      () => provider.call(api.readAccount, { params: { accountId }, masqueradeAs: accountId }),
      (a) => a.profileFields.find((f) => f.fieldId === fieldId)?.status === 'PENDING',
    );
    await operator(`/sandbox/accounts/${accountId}/fields/${fieldId}/approve`);
  }
  const result = await clients.kyc.result(accountId);
  say(`KYC ${result.outcome}`);
}

async function achFollowup(clients: Clients) {
  say('— ACH authorization follow-up');
  const { accountId, paymentMethodId } = await achPaymentMethod({ provider, op });
  say(`payment method ${paymentMethodId}: the provider asks for an ACH authorization form`);
  await clients.achFollowup.start({ paymentMethodId, accountId });
  await until(
    'the process to wait for the form',
    () => clients.achFollowup.state(paymentMethodId),
    (s) => s.stage === 'WAITING_FOR_FORM',
  );
  const state = await clients.achFollowup.submitForm(paymentMethodId, PNG_DOCUMENT);
  say(`form submitted (${state.formsSubmitted}); the source of funds is ${state.sourceOfFunds?.status ?? '…'}`);
  await operator(`/sandbox/payment-methods/${paymentMethodId}/approve`);
  const result = await clients.achFollowup.result(paymentMethodId);
  say(`the method is ${result.outcome}; source of funds ${result.sourceOfFunds?.status}`);
}

async function onboarding(clients: Clients) {
  say('— Onboarding for higher limits');
  await operator(`/sandbox/accounts/${config.provider.accountId}/features`, { debitCardL2: true });
  const userRef = `demo-user-${stamp}`;
  await clients.onboarding.start({ userRef, country: 'US' });
  const { userId } = await until(
    'the user',
    () => clients.onboarding.state(userRef),
    (s) => Boolean(s.userId),
  );
  const url = await clients.onboarding.onboardingLink(userRef);
  say(`user ${userId} created with DEBIT_CARD_L2; their onboarding link (fresh on every request): ${url}`);
  const page = await request(url, { method: 'POST' });
  await page.body.dump();
  say('the user opens the link and submits the verification; the reviewer approves');
  await operator(`/sandbox/users/${userId}/approve`);
  const result = await clients.onboarding.result(userRef);
  say(
    `onboarding ${result.outcome}: weekly limit ${result.limits?.weeklyTotal} USD, yearly ${result.limits?.yearlyTotal} USD`,
  );
  return result.userId;
}

async function checkout(clients: Clients, userId: string, walletId: string) {
  say('— Reservation checkout');
  const orderRef = `demo-order-${stamp}`;
  const page = await clients.checkout.startAndGetPage({
    orderRef,
    sourceAmount: 250,
    sourceCurrency: 'USD',
    destCurrency: 'USD',
    dest: walletSrn(walletId),
    userId,
    requireHigherLimits: true,
  });
  say(`the hosted page is ready: ${page.url}`);
  await operator(`/sandbox/reservations/${page.reservation}/complete`);
  say('the buyer pays on the hosted page');
  const result = await clients.checkout.result(orderRef);
  say(`checkout ${result.outcome}: transfer ${result.transferId}`);
  const state = await until(
    'the purchase in the wallet',
    () => clients.wallets.state(walletId),
    (v) => v.balances.USD?.confirmed !== undefined && compare(v.balances.USD.confirmed, 250) >= 0,
  );
  say(`the wallet's workflow counted the purchase: USD ${state.balances.USD!.confirmed}`);
}

async function provisioning(clients: Clients) {
  say('— Account provisioning for a client-held token');
  const clientRef = `demo-device-${stamp}`;
  await clients.provisioning.start({ clientRef, country: 'DE', secret: generateClientSecret() });
  const result = await clients.provisioning.result(clientRef);
  say(`token registered (API key ${result.apiKey}) and its account created: ${result.accountId}`);
}

async function main(cfg: Config) {
  const connection = await reachTemporal(cfg);
  const claims = claimStoreFromConfig(cfg);
  await reachClaimStore(claims, cfg);
  await reachSandbox(cfg, "the demo (it plays the provider's reviewers)");
  const client = clientFor(connection, cfg);
  // Short waits between looks at the provider, so that the demo moves at a watchable pace.
  const clients = createClients(client, cfg, claims, { pollInitialMs: 300, pollMaxMs: 2_000 });
  const walletId = await wallet(clients);
  await kyc(clients);
  await achFollowup(clients);
  const userId = await onboarding(clients);
  await checkout(clients, userId, walletId);
  await provisioning(clients);
  say(
    `done: the workflows are in the Temporal UI at http://127.0.0.1:${cfg.temporal.uiPort}/namespaces/${cfg.temporal.namespace}/workflows`,
  );
  await provider.close();
  await connection.close();
}

/** The client's named errors: each says whose failure it is and what to do, so its line is the report. */
const NAMED = [
  InputRejectedError,
  NotDeliveredError,
  ProviderRefusedError,
  ClaimStoreError,
  ProcessNotFoundError,
  AlreadyFinishedError,
  CheckoutEndedError,
];

try {
  await main(config);
} catch (err) {
  if (!NAMED.some((named) => err instanceof named)) throw err;
  console.error(`[demo] stopped: ${(err as Error).name}: ${(err as Error).message}`);
  process.exit(1);
}
