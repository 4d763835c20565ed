import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { Connection } from '@temporalio/client';
import { request } from 'undici';
import { createClients } from '../src/client/index.js';
import { claimStoreFromConfig } from '../src/claims/from-config.js';
import { loadConfig, temporalAddress } from '../src/config.js';
import { clientFor } from '../src/temporal/connection.js';
import { generateClientSecret } from '../src/provider/client-token.js';
import * as api from '../src/provider/endpoints.js';
import { providerFromConfig } from '../src/provider/from-config.js';
import { findTemporalCli } from '../src/temporal/cli.js';
import { openWalletWorkflowId } from '../workflows/messages/wallet.js';

// With the stack running as
//   PAYLOAD_ENCRYPTION_KEY=$(cat test/histories/payload-key.txt) WALLET_POLL_INTERVAL=500ms WALLET_POLL_MAX=2s npm run dev
// and this script run with the same PAYLOAD_ENCRYPTION_KEY: drives each workflow through its story
// and writes the histories to test/histories/, where `npm run replay` and the replay test check
// every later change against them. Run it again (and commit the files) when a workflow changes on
// purpose, in a way that running workflows can take (or after they have all finished).

const config = loadConfig();
const cli = await findTemporalCli();
if (cli.kind !== 'binary') throw new Error('recording histories needs the temporal CLI (see README)');
const connection = await Connection.connect(config.temporal.connection);
const client = clientFor(connection, config);
const clients = createClients(client, config, claimStoreFromConfig(config), { pollInitialMs: 200, pollMaxMs: 1_000 });
const provider = providerFromConfig(config);
const op = async (path: string, body: unknown = {}) => {
  const res = await request(`${config.provider.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return (await res.body.json()) as { transaction: { id: string } };
};
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
// `-- wallet` records the wallet's stories alone; HISTORY_SUFFIX names the files apart
// (wallet-<suffix>.json), so that histories recorded before a change stay beside the new ones.
const only = process.argv[2];
const suffix = process.env.HISTORY_SUFFIX ? `-${process.env.HISTORY_SUFFIX}` : '';
const save = (file: string, workflowId: string, runId?: string) => {
  // The CLI writes the JSON form that historyFromJSON reads (the same as the UI's export).
  const args = ['workflow', 'show', '--address', temporalAddress(config), '--namespace', config.temporal.namespace, '--workflow-id', workflowId, ...(runId ? ['--run-id', runId] : []), '--output', 'json'];
  const json = execFileSync(cli.path, args, { encoding: 'utf8' });
  writeFileSync(`test/histories/${file}${suffix}.json`, json);
  console.log(`wrote test/histories/${file}${suffix}.json (${(JSON.parse(json) as { events: unknown[] }).events.length} events)`);
};

// Wallet: opened, a deposit pending then confirmed, a repeat, an interest payout, some polls.
const name = `history-${Date.now()}`;
const w = await clients.wallets.open({ name });
const d = await op(`/sandbox/wallets/${w.walletId}/deposits`, { currency: 'BTC', amount: 0.5 });
await pause(500);
await op(`/sandbox/transactions/${d.transaction.id}/confirm`);
await op(`/sandbox/transactions/${d.transaction.id}/resend-callback`);
await op(`/sandbox/wallets/${w.walletId}/interest-payouts`, { currency: 'USD', amount: 2 });
await pause(4_500);
// A callback lost on the way: the next poll finds its deposit.
await request(`${config.provider.baseUrl}/sandbox/knobs/callbacks`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ drop: 1 }) });
await op(`/sandbox/wallets/${w.walletId}/deposits`, { currency: 'BTC', amount: 0.25, confirmed: true });
await pause(6_000);
save('open-wallet', openWalletWorkflowId(name));
save('wallet', w.walletWorkflowId);
await client.workflow.getHandle(w.walletWorkflowId).terminate('history recorded');

// A wallet's run that continues as new once its history is long: the first run is recorded.
const rolled = await clients.wallets.open({ name: `history-rolled-${Date.now()}` });
await client.workflow.getHandle(rolled.walletWorkflowId).terminate('restarted with a short history limit');
const rolling = await client.workflow.start('walletWorkflow', { workflowId: rolled.walletWorkflowId, taskQueue: config.temporal.taskQueue, args: [{ walletId: rolled.walletId, pollIntervalMs: config.wallet.pollIntervalMs, pollMaxMs: config.wallet.pollMaxMs, maxHistoryEvents: 60 }] });
for (let i = 0; i < 25; i++) await op(`/sandbox/wallets/${rolled.walletId}/deposits`, { currency: 'ETH', amount: 1, confirmed: true });
while ((await client.workflow.getHandle(rolled.walletWorkflowId).describe()).runId === rolling.firstExecutionRunId) await pause(200);
save('wallet-continued', rolled.walletWorkflowId, rolling.firstExecutionRunId);
await client.workflow.getHandle(rolled.walletWorkflowId).terminate('history recorded');
if (only === 'wallet') {
  await provider.close();
  await connection.close();
  process.exit(0);
}

// ACH follow-up: the form awaited, submitted, approved.
const account = await provider.call(api.createAccount, { body: { country: 'US' } });
const pm = await provider.call(api.createPaymentMethod, { body: { paymentMethodType: 'LOCAL_TRANSFER', country: 'US', accountNumber: '000123456789' }, masqueradeAs: account.id });
await op(`/sandbox/payment-methods/${pm.id}/request-ach-form`);
await clients.achFollowup.start({ paymentMethodId: pm.id, accountId: account.id });
while ((await clients.achFollowup.state(pm.id)).stage !== 'WAITING_FOR_FORM') await pause(100);
await clients.achFollowup.submitForm(pm.id, { bytes: Buffer.from('89504e47', 'hex'), contentType: 'image/png' });
await op(`/sandbox/payment-methods/${pm.id}/approve`);
await clients.achFollowup.result(pm.id);
save('ach-followup', `ach-followup:${pm.id}`);

// Provisioning: a token registered and its account created.
const clientRef = `history-${Date.now()}`;
await clients.provisioning.start({ clientRef, country: 'DE', secret: generateClientSecret() });
await clients.provisioning.result(clientRef);
save('provisioning', `provision:${clientRef}`);

// KYC: the SSN sent back, resubmitted by reference, approved.
const kycAccount = await provider.call(api.createAccount, { body: { country: 'US', profileFields: [{ fieldId: 'individualSsn', value: '000-00-0000' }] } });
await op(`/sandbox/accounts/${kycAccount.id}/fields/individualSsn/reject`, { note: 'ssn.invalid' });
await clients.kyc.start(kycAccount.id);
while (!(await clients.kyc.state(kycAccount.id)).fields.some((f) => f.awaiting)) await pause(100);
await clients.kyc.submitValue(kycAccount.id, 'individualSsn', '123-45-6789');
await pause(500);
const kycFields = (await provider.call(api.readAccount, { params: { accountId: kycAccount.id }, masqueradeAs: kycAccount.id })).profileFields;
for (const f of kycFields.filter((x) => x.status === 'PENDING')) await op(`/sandbox/accounts/${kycAccount.id}/fields/${f.fieldId}/approve`);
for (const fieldId of ['individualGovernmentId', 'individualProofOfAddress'] as const) {
  await provider.call(api.uploadDocument, { params: { accountId: kycAccount.id, fieldId }, body: { bytes: Buffer.from('89504e47', 'hex'), contentType: 'image/png' }, masqueradeAs: kycAccount.id });
}
for (const f of ['individualLegalName', 'individualDateOfBirth', 'individualResidenceAddress']) {
  await provider.call(api.updateAccount, { params: { accountId: kycAccount.id }, body: { profileFields: [{ fieldId: f, value: 'x' }] }, masqueradeAs: kycAccount.id });
}
for (const f of ['individualLegalName', 'individualDateOfBirth', 'individualResidenceAddress', 'individualGovernmentId', 'individualProofOfAddress']) await op(`/sandbox/accounts/${kycAccount.id}/fields/${f}/approve`);
await clients.kyc.result(kycAccount.id);
save('kyc', `kyc:${kycAccount.id}`);

// Onboarding, then a checkout that waits for it.
await op(`/sandbox/accounts/${config.provider.accountId}/features`, { debitCardL2: true });
const userRef = `history-${Date.now()}`;
await clients.onboarding.start({ userRef, country: 'US' });
let userId: string | null = null;
while (!(userId = (await clients.onboarding.state(userRef)).userId)) await pause(100);
const link = await clients.onboarding.onboardingLink(userRef);
await (await request(link)).body.dump();
await op(`/sandbox/users/${userId}/approve`);
await clients.onboarding.result(userRef);
save('onboarding', `onboarding:${userRef}`);
const orderRef = `history-${Date.now()}`;
const page = await clients.checkout.startAndGetPage({ orderRef, sourceAmount: 100, sourceCurrency: 'USD', destCurrency: 'USD', dest: `wallet:${w.walletId}`, userId, requireHigherLimits: true });
await op(`/sandbox/reservations/${page.reservation}/complete`);
await clients.checkout.result(orderRef);
save('checkout', `checkout:${orderRef}`);

await provider.close();
await connection.close();
