import { Client, Connection } from '@temporalio/client';
import { request } from 'undici';
import { createClients, type Clients } from '../src/client';
import { LocalClaimStore } from '../src/claims/store';
import { type Config, loadConfig, temporalAddress } from '../src/config';
import { providerFromConfig } from '../src/provider/from-config';
import { generateClientSecret } from '../src/provider/client-token';
import * as api from '../src/provider/endpoints';

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
    connection = await Connection.connect({ address: temporalAddress(cfg), connectTimeout: 3_000 });
  } catch {
    console.error(`Temporal is not reachable at ${temporalAddress(cfg)}: start the stack first with \`npm run dev\`.`);
    process.exit(2);
  }
  const client = new Client({ connection, namespace: cfg.temporal.namespace });
  // Short waits between looks at the provider, so that the demo moves at a watchable pace.
  const clients = createClients(client, cfg, new LocalClaimStore(cfg.claims.dir), { pollInitialMs: 300, pollMaxMs: 2_000 });
  await wallet(clients);
  await achFollowup(clients);
  await provisioning(clients);
  say(`done: the workflows are in the Temporal UI at http://127.0.0.1:${cfg.temporal.uiPort}/namespaces/${cfg.temporal.namespace}/workflows`);
  await provider.close();
  await connection.close();
}

await main(config);
