import { Connection } from '@temporalio/client';
import { request } from 'undici';
import { createClients, type Clients } from '../src/client/index.js';
import { claimStoreFromConfig } from '../src/claims/from-config.js';
import { type Config, loadConfig, temporalAddress } from '../src/config.js';
import { clientFor } from '../src/temporal/connection.js';
import { providerFromConfig } from '../src/provider/from-config.js';
import { generateClientSecret } from '../src/provider/client-token.js';
import * as api from '../src/provider/endpoints.js';

// `npm run demo` (with `npm run dev` running): every process end to end against the sandbox,
// played by its operator routes, with progress as it goes. The workflows stay in the Temporal UI.

const config = loadConfig();
if (!config.provider.usesSandbox) {
  console.error('npm run demo plays the provider\'s reviewers through the sandbox; unset PROVIDER_BASE_URL to use it.');
  process.exit(2);
}
const say = (line: string) => console.log(`[demo] ${line}`);
const stamp = new Date().toISOString().replace(/[-:.TZ]/g, '').slice(0, 14);
const provider = providerFromConfig(config);
const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const cfgAccount = () => config.provider.accountId;

async function operator<T = Record<string, unknown>>(path: string, body?: unknown): Promise<T> {
  const res = await request(`${config.provider.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) });
  const json = (await res.body.json()) as T;
  if (res.statusCode !== 200) throw new Error(`${path} answered ${res.statusCode}: ${JSON.stringify(json)}`);
  return json;
}

async function until<T>(what: string, read: () => Promise<T>, done: (v: T) => boolean, seconds = 60): Promise<T> {
  for (let i = 0; i < seconds * 5; i++) {
    const v = await read();
    if (done(v)) return v;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function wallet(c: Clients) {
  say('— Wallet and deposits');
  const w = await c.wallets.open({ name: `demo-${stamp}`, type: 'SAVINGS' });
  say(`wallet ${w.walletId}; BTC deposit address ${w.depositAddresses.BTC}`);
  const { transaction } = await operator<{ transaction: { id: string } }>(`/sandbox/wallets/${w.walletId}/deposits`, { currency: 'BTC', amount: 0.05 });
  let s = await until('the pending deposit', () => c.wallets.state(w.walletId), (v) => v.balances.BTC?.pending === 0.05);
  say(`a 0.05 BTC deposit is pending: confirmed ${s.balances.BTC!.confirmed}, pending ${s.balances.BTC!.pending}`);
  await operator(`/sandbox/transactions/${transaction.id}/confirm`);
  await operator(`/sandbox/transactions/${transaction.id}/resend-callback`);
  s = await until('the confirmation', () => c.wallets.state(w.walletId), (v) => v.balances.BTC?.confirmed === 0.05 && v.stats.duplicates >= 1);
  say(`confirmed, and the repeated callback ignored: confirmed ${s.balances.BTC!.confirmed} BTC, duplicates ${s.stats.duplicates}`);
  await operator(`/sandbox/wallets/${w.walletId}/interest-payouts`, { currency: 'USD', amount: 1.23 });
  s = await until('the interest payout', () => c.wallets.state(w.walletId), (v) => v.recentTransactions.some((t) => t.kind === 'interest'));
  say(`interest payout recognised: USD ${s.balances.USD!.confirmed}`);
  return w.walletId;
}

async function kyc(c: Clients) {
  say('— KYC resubmission');
  const account = await provider.call(api.createAccount, {
    body: { country: 'US', profileFields: [{ fieldId: 'individualLegalName', value: 'Ada Lovelace' }, { fieldId: 'individualDateOfBirth', value: '1815-12-10' }, { fieldId: 'individualResidenceAddress', value: '12 St James Sq, London' }, { fieldId: 'individualSsn', value: '000-00-0000' }] },
  });
  for (const fieldId of ['individualGovernmentId', 'individualProofOfAddress'] as const) {
    await provider.call(api.uploadDocument, { params: { accountId: account.id, fieldId }, body: { bytes: png, contentType: 'image/png' }, masqueradeAs: account.id });
  }
  await operator(`/sandbox/accounts/${account.id}/fields/individualSsn/reject`, { note: 'ssn.invalid' });
  await operator(`/sandbox/accounts/${account.id}/fields/individualGovernmentId/reject`, { note: 'identity.blurry' });
  say(`account ${account.id}: the reviewer sends back the SSN and the identity image`);
  await c.kyc.start(account.id);
  const waiting = await until('the fields to be asked for', () => c.kyc.state(account.id), (s) => s.fields.filter((f) => f.awaiting).length === 2);
  for (const f of waiting.fields.filter((x) => x.awaiting)) say(`  ${f.fieldId}: ${f.reason?.message ?? f.note}`);
  await c.kyc.submitValue(account.id, 'individualSsn', '123-45-6789');
  await c.kyc.submitDocument(account.id, 'individualGovernmentId', { bytes: png, contentType: 'image/png' });
  say('the end user resubmits both (the SSN travels by reference: it never enters workflow history)');
  for (const f of ['individualLegalName', 'individualDateOfBirth', 'individualResidenceAddress', 'individualSsn', 'individualGovernmentId', 'individualProofOfAddress']) {
    await until(`${f} to be under review`, () => provider.call(api.readAccount, { params: { accountId: account.id }, masqueradeAs: account.id }), (a) => a.profileFields.find((x) => x.fieldId === f)?.status === 'PENDING');
    await operator(`/sandbox/accounts/${account.id}/fields/${f}/approve`);
  }
  const r = await c.kyc.result(account.id);
  say(`KYC ${r.outcome}`);
}

async function achFollowup(c: Clients) {
  say('— ACH authorization follow-up');
  const account = await provider.call(api.createAccount, { body: { country: 'US' } });
  const pm = await provider.call(api.createPaymentMethod, { body: { paymentMethodType: 'LOCAL_TRANSFER', country: 'US', accountNumber: '000123456789' }, masqueradeAs: account.id });
  await operator(`/sandbox/payment-methods/${pm.id}/request-ach-form`);
  say(`payment method ${pm.id}: the provider asks for an ACH authorization form`);
  await c.achFollowup.start({ paymentMethodId: pm.id, accountId: account.id });
  await until('the process to wait for the form', () => c.achFollowup.state(pm.id), (s) => s.stage === 'WAITING_FOR_FORM');
  const s = await c.achFollowup.submitForm(pm.id, { bytes: png, contentType: 'image/png' });
  say(`form submitted (${s.formsSubmitted}); the source of funds is ${s.sourceOfFunds?.status ?? '…'}`);
  await operator(`/sandbox/payment-methods/${pm.id}/approve`);
  const r = await c.achFollowup.result(pm.id);
  say(`the method is ${r.outcome}; source of funds ${r.sourceOfFunds?.status}`);
}

async function onboarding(c: Clients) {
  say('— Onboarding for higher limits');
  await operator(`/sandbox/accounts/${cfgAccount()}/features`, { debitCardL2: true });
  const userRef = `demo-user-${stamp}`;
  await c.onboarding.start({ userRef, country: 'US' });
  const { userId } = await until('the user', () => c.onboarding.state(userRef), (s) => Boolean(s.userId));
  const url = await c.onboarding.onboardingLink(userRef);
  say(`user ${userId} created with DEBIT_CARD_L2; their onboarding link (fresh on every request): ${url}`);
  const page = await request(url);
  await page.body.dump();
  say('the user opens the link and submits the verification; the reviewer approves');
  await operator(`/sandbox/users/${userId}/approve`);
  const r = await c.onboarding.result(userRef);
  say(`onboarding ${r.outcome}: weekly limit ${r.limits?.weeklyTotal} USD, yearly ${r.limits?.yearlyTotal} USD`);
  return r.userId;
}

async function checkout(c: Clients, userId: string, walletId: string) {
  say('— Reservation checkout');
  const orderRef = `demo-order-${stamp}`;
  const page = await c.checkout.startAndGetPage({ orderRef, sourceAmount: 250, sourceCurrency: 'USD', destCurrency: 'USD', dest: `wallet:${walletId}`, userId, requireHigherLimits: true });
  say(`the hosted page is ready: ${page.url}`);
  await operator(`/sandbox/reservations/${page.reservation}/complete`);
  say('the buyer pays on the hosted page');
  const r = await c.checkout.result(orderRef);
  say(`checkout ${r.outcome}: transfer ${r.transferId}`);
  const s = await until('the purchase in the wallet', () => c.wallets.state(walletId), (v) => v.balances.USD?.confirmed !== undefined && v.balances.USD.confirmed >= 250);
  say(`the wallet's workflow counted the purchase: USD ${s.balances.USD!.confirmed}`);
}

async function provisioning(c: Clients) {
  say('— Account provisioning for a client-held token');
  const clientRef = `demo-device-${stamp}`;
  await c.provisioning.start({ clientRef, country: 'DE', secret: generateClientSecret() });
  const r = await c.provisioning.result(clientRef);
  say(`token registered (API key ${r.apiKey}) and its account created: ${r.accountId}`);
}

async function main(cfg: Config) {
  let connection: Connection;
  try {
    connection = await Connection.connect({ ...cfg.temporal.connection, connectTimeout: 3_000 });
  } catch {
    console.error(`Temporal is not reachable at ${temporalAddress(cfg)}: start the stack first with \`npm run dev\`.`);
    process.exit(2);
  }
  const client = clientFor(connection, cfg);
  // Short waits between looks at the provider, so that the demo moves at a watchable pace.
  const clients = createClients(client, cfg, claimStoreFromConfig(cfg), { pollInitialMs: 300, pollMaxMs: 2_000 });
  const walletId = await wallet(clients);
  await kyc(clients);
  await achFollowup(clients);
  const userId = await onboarding(clients);
  await checkout(clients, userId, walletId);
  await provisioning(clients);
  say(`done: the workflows are in the Temporal UI at http://127.0.0.1:${cfg.temporal.uiPort}/namespaces/${cfg.temporal.namespace}/workflows`);
  await provider.close();
  await connection.close();
}

await main(config);
