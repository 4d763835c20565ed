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
import { openWalletWorkflowId, walletWorkflowId } from '../workflows/wallet/messages.js';
import { historyWriter } from './lib/history-file.js';
import { accountWithProfile, PNG_DOCUMENT } from './fixtures/account.js';
import { operatorCalls } from './fixtures/operator.js';

// With the stack running as
//   PAYLOAD_ENCRYPTION_KEY=$(cat test/histories/payload-key.txt) WALLET_POLL_INTERVAL=500ms WALLET_POLL_MAX=2s npm run dev
// and this script run with the same PAYLOAD_ENCRYPTION_KEY: drives each workflow through its story
// and writes the histories to test/histories/<process>/, where `npm run replay` and the replay test check
// every later change against them. Run it again (and commit the files) when a workflow changes on
// purpose, in a way that running workflows can take (or after they have all finished).

const config = loadConfig();
const connection = await Connection.connect(config.temporal.connection);
const client = clientFor(connection, config);
const clients = createClients(client, config, claimStoreFromConfig(config), { pollInitialMs: 200, pollMaxMs: 1_000 });
const provider = providerFromConfig(config);
const { op } = operatorCalls(config.provider.baseUrl);
type Deposit = { transaction: { id: string } };
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
// `-- wallet` records the wallet's stories alone; HISTORY_SUFFIX names the files apart
// (wallet/wallet-<suffix>.json), so that histories recorded before a change stay beside the new ones.
const only = process.argv[2];
const save = await historyWriter(config);

// Wallet: opened, a deposit pending then confirmed, a repeat, an interest payout, some polls.
const name = `history-${Date.now()}`;
const wallet = await clients.wallets.open({ name });
const deposit = await op<Deposit>('POST', `/sandbox/wallets/${wallet.walletId}/deposits`, {
  currency: 'BTC',
  amount: 0.5,
});
await pause(500);
await op('POST', `/sandbox/transactions/${deposit.transaction.id}/confirm`);
await op('POST', `/sandbox/transactions/${deposit.transaction.id}/resend-callback`);
await op('POST', `/sandbox/wallets/${wallet.walletId}/interest-payouts`, { currency: 'USD', amount: 2 });
await pause(4_500);
// A callback lost on the way: the next poll finds its deposit.
await op('PUT', '/sandbox/knobs/callbacks', { drop: 1 });
await op('POST', `/sandbox/wallets/${wallet.walletId}/deposits`, { currency: 'BTC', amount: 0.25, confirmed: true });
await pause(6_000);
save('wallet', 'open-wallet', openWalletWorkflowId(name));
save('wallet', 'wallet', wallet.walletWorkflowId);
await client.workflow.getHandle(wallet.walletWorkflowId).terminate('history recorded');

// A wallet's run that continues as new once its history is long: the first run is recorded.
const rolled = await clients.wallets.open({ name: `history-rolled-${Date.now()}` });
await client.workflow.getHandle(rolled.walletWorkflowId).terminate('restarted with a short history limit');
const rolling = await client.workflow.start('walletWorkflow', {
  workflowId: rolled.walletWorkflowId,
  taskQueue: config.temporal.taskQueue,
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
  await op('POST', `/sandbox/wallets/${rolled.walletId}/deposits`, { currency: 'ETH', amount: 1, confirmed: true });
while ((await client.workflow.getHandle(rolled.walletWorkflowId).describe()).runId === rolling.firstExecutionRunId)
  await pause(200);
save('wallet', 'wallet-continued', rolled.walletWorkflowId, rolling.firstExecutionRunId);
await client.workflow.getHandle(rolled.walletWorkflowId).terminate('history recorded');

// A signed callback for a wallet the provider does not know: its follower counts it, polls, and
// ends UNKNOWN_WALLET.
const unknownId = `WA_UNKNOWN${Date.now()}`;
const unknownBody = Buffer.from(
  JSON.stringify({
    id: `TR_UNKNOWN${Date.now()}`,
    createdAt: Date.now(),
    source: 'bitcoin:EXTERNAL',
    dest: walletSrn(unknownId),
    currency: 'BTC',
    amount: 0.5,
    status: 'CONFIRMED',
    metadata: {},
    tags: [],
  }),
);
const unknownAnswer = await request(`${config.ingress.publicUrl}/callbacks`, {
  method: 'POST',
  headers: {
    'content-type': 'application/json',
    'x-api-signature': callbackSignature(providerCredentials(config).secretKey, unknownBody),
  },
  body: unknownBody,
});
await unknownAnswer.body.dump();
if (unknownAnswer.statusCode !== 200) throw new Error(`the ingress answered ${unknownAnswer.statusCode}`);
await client.workflow.getHandle(walletWorkflowId(unknownId)).result();
save('wallet', 'wallet-unknown', walletWorkflowId(unknownId));
if (only === 'wallet') {
  await provider.close();
  await connection.close();
  process.exit(0);
}

// ACH follow-up: the form awaited, submitted, approved.
const account = await provider.call(api.createAccount, { body: { country: 'US' } });
const paymentMethod = await provider.call(api.createPaymentMethod, {
  body: { paymentMethodType: 'LOCAL_TRANSFER', country: 'US', accountNumber: '000123456789' },
  masqueradeAs: account.id,
});
const paymentMethodId = paymentMethod.id;
await op('POST', `/sandbox/payment-methods/${paymentMethodId}/request-ach-form`);
await clients.achFollowup.start({ paymentMethodId, accountId: account.id });
while ((await clients.achFollowup.state(paymentMethodId)).stage !== 'WAITING_FOR_FORM') await pause(100);
await clients.achFollowup.submitForm(paymentMethodId, PNG_DOCUMENT);
await op('POST', `/sandbox/payment-methods/${paymentMethodId}/approve`);
await clients.achFollowup.result(paymentMethodId);
save('ach-followup', 'ach-followup', `ach-followup:${paymentMethodId}`);

// Provisioning: a token registered and its account created.
const clientRef = `history-${Date.now()}`;
await clients.provisioning.start({ clientRef, country: 'DE', secret: generateClientSecret() });
await clients.provisioning.result(clientRef);
save('provisioning', 'provisioning', `provision:${clientRef}`);

// KYC: the SSN sent back, resubmitted by reference, approved.
// The account has only its SSN submitted, and that sent back; the rest comes while the process runs.
const kycAccountId = await accountWithProfile(
  { provider, op },
  { submit: ['individualSsn'], reject: { individualSsn: 'ssn.invalid' } },
);
await clients.kyc.start(kycAccountId);
while (!(await clients.kyc.state(kycAccountId)).fields.some((f) => f.awaiting)) await pause(100);
await clients.kyc.submitValue(kycAccountId, 'individualSsn', '123-45-6789');
await pause(500);
const kycFields = (
  await provider.call(api.readAccount, { params: { accountId: kycAccountId }, masqueradeAs: kycAccountId })
).profileFields;
for (const field of kycFields.filter((f) => f.status === 'PENDING'))
  await op('POST', `/sandbox/accounts/${kycAccountId}/fields/${field.fieldId}/approve`);
for (const fieldId of ['individualGovernmentId', 'individualProofOfAddress'] as const) {
  await provider.call(api.uploadDocument, {
    params: { accountId: kycAccountId, fieldId },
    body: PNG_DOCUMENT,
    masqueradeAs: kycAccountId,
  });
}
for (const fieldId of ['individualLegalName', 'individualDateOfBirth', 'individualResidenceAddress']) {
  await provider.call(api.updateAccount, {
    params: { accountId: kycAccountId },
    body: { profileFields: [{ fieldId, value: 'x' }] },
    masqueradeAs: kycAccountId,
  });
}
for (const fieldId of [
  'individualLegalName',
  'individualDateOfBirth',
  'individualResidenceAddress',
  'individualGovernmentId',
  'individualProofOfAddress',
])
  await op('POST', `/sandbox/accounts/${kycAccountId}/fields/${fieldId}/approve`);
await clients.kyc.result(kycAccountId);
save('kyc', 'kyc', `kyc:${kycAccountId}`);

// Onboarding, then a checkout that waits for it.
await op('POST', `/sandbox/accounts/${config.provider.accountId}/features`, { debitCardL2: true });
const userRef = `history-${Date.now()}`;
await clients.onboarding.start({ userRef, country: 'US' });
let userId: string | null = null;
while (!(userId = (await clients.onboarding.state(userRef)).userId)) await pause(100);
const link = await clients.onboarding.onboardingLink(userRef);
await (await request(link, { method: 'POST' })).body.dump();
await op('POST', `/sandbox/users/${userId}/approve`);
await clients.onboarding.result(userRef);
save('onboarding', 'onboarding', `onboarding:${userRef}`);
const orderRef = `history-${Date.now()}`;
const page = await clients.checkout.startAndGetPage({
  orderRef,
  sourceAmount: 100,
  sourceCurrency: 'USD',
  destCurrency: 'USD',
  dest: walletSrn(wallet.walletId),
  userId,
  requireHigherLimits: true,
});
await op('POST', `/sandbox/reservations/${page.reservation}/complete`);
await clients.checkout.result(orderRef);
save('checkout', 'checkout', `checkout:${orderRef}`);

await provider.close();
await connection.close();
