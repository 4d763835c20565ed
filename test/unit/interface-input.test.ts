import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MockAgent } from 'undici';
import { ProviderClient } from '../../src/provider/client.js';
import { generateClientSecret, registerClientToken } from '../../src/provider/client-token.js';
import * as api from '../../src/provider/endpoints.js';
import { ProviderInputError } from '../../src/provider/errors.js';
import { MAX_DOCUMENT_BYTES } from '../../src/provider/schemas/document.js';

// Bad input to each client function is refused before any request is sent, with a message that
// names the field. The dispatcher below fails the test if anything reaches the network.
const agent = new MockAgent();
agent.disableNetConnect();
const client = new ProviderClient({
  baseUrl: 'https://provider.example.test',
  auth: { kind: 'signature', apiKey: 'AK', secretKey: 'SK' },
  dispatcher: agent,
});

async function refused(p: Promise<unknown>, field: string, message?: RegExp) {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof ProviderInputError, `expected ProviderInputError, got ${String(e)}`);
    assert.equal(e.field, field);
    assert.match(e.message, new RegExp(field.replace('.', '\\.')));
    if (message) assert.match(e.message, message);
    return true;
  });
}

const png = (size: number) => Buffer.alloc(size, 1);

describe('bad input is refused before any request', () => {
  it('ids with the wrong prefix', async () => {
    await refused(client.call(api.readAccount, { params: { accountId: 'US_123' } }), 'accountId', /AC_<id>/);
    await refused(client.call(api.readUser, { params: { userId: 'AC_123' } }), 'userId', /US_<id>/);
    await refused(client.call(api.readTransfer, { params: { transferId: 'TR_1' } }), 'transferId');
    await refused(client.call(api.readWallet, { params: { walletId: 'wallet:WA_1' } }), 'walletId');
    await refused(client.call(api.readPaymentMethod, { params: { paymentMethodId: 'AC_1' } }), 'paymentMethodId');
    await refused(client.call(api.readOnboardingLink, { params: { userId: 'user:US_1' } }), 'userId');
    await refused(client.call(api.readOrder, { params: { orderId: 'TF_1' } }), 'orderId');
    await refused(client.call(api.calculateLimits, { body: { accountId: 'AC_1', userId: 'US-' } }), 'userId');
  });

  it('documents: too large, of an unsupported type, empty, or for a field that takes none', async () => {
    const params = { accountId: 'AC_1', fieldId: 'individualGovernmentId' as const };
    await refused(
      client.call(api.uploadDocument, {
        params,
        body: { bytes: png(MAX_DOCUMENT_BYTES + 1), contentType: 'image/png' },
      }),
      'bytes',
      /7\.75 MB/,
    );
    await refused(
      client.call(api.uploadDocument, { params, body: { bytes: png(10), contentType: 'image/gif' as 'image/png' } }),
      'contentType',
      /application\/pdf/,
    );
    await refused(
      client.call(api.uploadDocument, { params, body: { bytes: png(0), contentType: 'image/png' } }),
      'bytes',
      /empty/,
    );
    await refused(
      client.call(api.uploadDocument, {
        params: { accountId: 'AC_1', fieldId: 'individualSsn' as 'individualGovernmentId' },
        body: { bytes: png(10), contentType: 'image/png' },
      }),
      'fieldId',
    );
    await refused(
      client.call(api.uploadDocument, {
        params,
        query: { documentSubType: 'SIDE' },
        body: { bytes: png(10), contentType: 'image/png' },
      }),
      'documentSubType',
    );
    await refused(
      client.call(api.submitFollowup, {
        params: { paymentMethodId: 'PA_1' },
        body: { bytes: png(MAX_DOCUMENT_BYTES + 1), contentType: 'image/jpeg' },
      }),
      'bytes',
    );
  });

  it('a document of exactly 7.75 MB is accepted by the check', async () => {
    // It gets past validation to the (disabled) network, which is what fails here.
    await assert.rejects(
      client.call(api.uploadDocument, {
        params: { accountId: 'AC_1', fieldId: 'individualProofOfAddress' },
        body: { bytes: png(MAX_DOCUMENT_BYTES), contentType: 'application/pdf' },
      }),
      (e: unknown) => !(e instanceof ProviderInputError),
    );
  });

  it('client-held secrets of the wrong length or alphabet', async () => {
    assert.throws(
      () => generateClientSecret(24),
      (e: unknown) => e instanceof ProviderInputError && e.field === 'length',
    );
    assert.equal(generateClientSecret(35).length, 35);
    await refused(
      registerClientToken({ baseUrl: 'https://provider.example.test', secret: 'tooshort', dispatcher: agent }),
      'secret',
      /25 to 35/,
    );
    await refused(
      registerClientToken({
        baseUrl: 'https://provider.example.test',
        secret: `${'a'.repeat(29)}!`,
        dispatcher: agent,
      }),
      'secret',
    );
    await refused(client.call(api.registerClientSecret, { query: { secretKey: 'x'.repeat(40) } }), 'secretKey');
  });

  it('bodies: accounts, users, payment methods, reservations, wallets', async () => {
    await refused(client.call(api.createAccount, { body: { country: 'usa' } }), 'country', /two-letter/);
    await refused(
      client.call(api.updateAccount, { params: { accountId: 'AC_1' }, body: { profileFields: [] } }),
      'profileFields',
    );
    await refused(client.call(api.createUser, { body: { scopes: ['debit card'] } }), 'scopes.0');
    await refused(
      client.call(api.createPaymentMethod, {
        body: { paymentMethodType: 'LOCAL_TRANSFER', country: 'US', accountNumber: '12' },
      }),
      'accountNumber',
    );
    await refused(
      client.call(api.createPaymentMethod, {
        body: { paymentMethodType: 'LOCAL_TRANSFER', country: 'US', accountNumber: '12345', owner: 'US_1' },
      }),
      'owner',
      /user:US_<id>/,
    );
    await refused(
      client.call(api.attachBlockchains, { params: { paymentMethodId: 'PA_1' }, body: { blockchain: 'btc' } }),
      'blockchain',
    );
    await refused(
      client.call(api.reserveOrder, { body: { sourceAmount: 1, destAmount: 1 } }),
      'destAmount',
      /not both/,
    );
    await refused(
      client.call(api.reserveOrder, { body: { lockFields: ['sourceAmount'], sourceAmount: 5 } }),
      'sourceCurrency',
    );
    await refused(client.call(api.reserveOrder, { body: { sourceAmount: 5, owner: 'user:AC_1' } }), 'owner');
    await refused(client.call(api.createWallet, { body: { name: '  ' } }), 'name');
    await refused(client.call(api.createWallet, { body: { name: 'x', type: 'GOLD' as 'DEFAULT' } }), 'type');
  });
});
