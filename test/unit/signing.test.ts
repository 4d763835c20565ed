import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MockAgent } from 'undici';
import { z } from 'zod';
import { ProviderClient } from '../../src/provider/client.js';
import { defineEndpoint } from '../../src/provider/endpoint.js';
import { createWallet, readTransfer } from '../../src/provider/endpoints.js';
import { ProviderInputError } from '../../src/provider/errors.js';
import { accountId } from '../../src/provider/schemas/common.js';
import { callbackSignature, requestSignature, signatureMatches } from '../../src/provider/signing.js';

// Vectors computed by hand, outside this code base:
//   printf '%s' '<url><body>' | openssl dgst -sha256 -hmac SK-VECTOR-SECRET
const SECRET = 'SK-VECTOR-SECRET';
const NOW = 1_700_000_000_000;
const V = {
  get: {
    url: 'https://api.example.test/v3/transfers/TF_ABC123?timestamp=1700000000000',
    body: '',
    sig: '1eb61060daacc944a2d4d7ab57cf7e7b9126bbe329db27af9fdee0e29d070adf',
  },
  post: {
    url: 'https://api.example.test/v2/wallets?timestamp=1700000000000',
    body: '{"name":"Zoë","callbackUrl":"https://hooks.example.test/callbacks"}',
    sig: '95c9b2ee750b7394422630c9340312a85f856a5bfa6a467fffb16f59205e19fd',
  },
  getMasquerade: {
    url: 'https://api.example.test/v3/accounts/AC_SUB1?masqueradeAs=user%3AUS_XYZ789&timestamp=1700000000000',
    body: '',
    sig: '3d359d5d1a15623cfd16d3a8338ec413a08a848cd3ab5f415568556eb57e4b09',
  },
  postMasquerade: {
    url: 'https://api.example.test/v3/accounts/AC_SUB1?masqueradeAs=user%3AUS_XYZ789&timestamp=1700000000000',
    body: '{"a":1}',
    sig: 'c9d8836c53d7cf39675b5c917b002e6e5bf868bbbc09ed4d9297d591ce4e0cd4',
  },
};

describe('request signature (docs/provider-contract.md §5.1)', () => {
  it('matches the hand-computed vectors for GET and POST, with and without masqueradeAs', () => {
    for (const [name, v] of Object.entries(V)) {
      assert.equal(requestSignature(SECRET, v.url, v.body), v.sig, name);
      assert.equal(requestSignature(SECRET, v.url, Buffer.from(v.body, 'utf8')), v.sig, `${name} (bytes)`);
    }
  });

  it('signs callbacks over the body alone (docs/provider-contract.md §6.4)', () => {
    assert.equal(
      callbackSignature(SECRET, '{"id":"TR_1","amount":1}'),
      'eab7e71e6dd0c50a1accafa5fe5ade664a50f97f853c2d1e710b6a8bf49f8b25',
    );
  });

  it('compares only well-formed lowercase hex, and any change fails', () => {
    assert.equal(signatureMatches(V.get.sig, V.get.sig), true);
    assert.equal(signatureMatches(V.get.sig, V.get.sig.toUpperCase()), false);
    assert.equal(signatureMatches(V.get.sig, V.get.sig.slice(0, 63)), false);
    assert.equal(signatureMatches(V.get.sig, `${V.get.sig.slice(0, 63)}0`), false);
    assert.equal(signatureMatches(V.get.sig, undefined), false);
  });
});

type Captured = { path: string; headers: Record<string, string>; body: string };

function mockProvider() {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const pool = agent.get('https://api.example.test');
  const captured: Captured[] = [];
  const reply = (status: number, json: unknown) => (opts: { path: string; headers?: unknown; body?: unknown }) => {
    captured.push({
      path: opts.path,
      headers: opts.headers as Record<string, string>,
      body: opts.body ? Buffer.from(opts.body as Buffer).toString('utf8') : '',
    });
    return {
      statusCode: status,
      data: JSON.stringify(json),
      responseOptions: { headers: { 'content-type': 'application/json' } },
    };
  };
  const client = new ProviderClient({
    baseUrl: 'https://api.example.test',
    auth: { kind: 'signature', apiKey: 'AK-VECTOR', secretKey: SECRET },
    dispatcher: agent,
    now: () => NOW,
  });
  return { agent, pool, captured, reply, client };
}

const walletBody = {
  id: 'WA_ABC',
  srn: 'wallet:WA_ABC',
  name: 'Zoë',
  owner: 'account:AC_1',
  type: 'DEFAULT',
  status: null,
  createdAt: NOW,
  callbackUrl: 'https://hooks.example.test/callbacks',
  notes: null,
  depositAddresses: {},
  balances: {},
  totalBalances: {},
  availableBalances: {},
};

describe('the client signs exactly what it sends', () => {
  it('POST /v2/wallets: the URL with timestamp, the UTF-8 body bytes, X-Api-Version 2', async () => {
    const m = mockProvider();
    m.pool.intercept({ path: (p) => p.startsWith('/v2/wallets'), method: 'POST' }).reply(m.reply(200, walletBody));
    const w = await m.client.call(createWallet, {
      body: { name: 'Zoë', callbackUrl: 'https://hooks.example.test/callbacks' },
    });
    assert.equal(w.id, 'WA_ABC');
    const req = m.captured[0]!;
    assert.equal(`https://api.example.test${req.path}`, V.post.url);
    assert.equal(req.body, V.post.body);
    assert.equal(req.headers['x-api-signature'], V.post.sig);
    assert.equal(req.headers['x-api-key'], 'AK-VECTOR');
    assert.equal(req.headers['x-api-version'], '2');
  });

  it('GET /v3/transfers/:id: empty body, no version header on v3', async () => {
    const m = mockProvider();
    m.pool
      .intercept({ path: (p) => p.startsWith('/v3/transfers/TF_ABC123'), method: 'GET' })
      .reply(
        m.reply(404, { language: 'en', exceptionId: 'x', type: 'NotFoundException', message: 'no', transient: false }),
      );
    await assert.rejects(m.client.call(readTransfer, { params: { transferId: 'TF_ABC123' } }));
    const req = m.captured[0]!;
    assert.equal(`https://api.example.test${req.path}`, V.get.url);
    assert.equal(req.headers['x-api-signature'], V.get.sig);
    assert.equal(req.headers['x-api-version'], undefined);
  });

  it('masqueradeAs is a query parameter, encoded, and inside the signed URL (docs/provider-contract.md §5.4)', async () => {
    const readAccount = defineEndpoint({
      name: 'read account',
      method: 'GET',
      path: '/v3/accounts/:accountId',
      params: z.object({ accountId }),
      response: z.object({ id: z.string() }),
    });
    const m = mockProvider();
    m.pool
      .intercept({ path: (p) => p.startsWith('/v3/accounts/AC_SUB1'), method: 'GET' })
      .reply(m.reply(200, { id: 'AC_SUB1' }));
    await m.client.call(readAccount, { params: { accountId: 'AC_SUB1' }, masqueradeAs: 'user:US_XYZ789' });
    const req = m.captured[0]!;
    assert.equal(`https://api.example.test${req.path}`, V.getMasquerade.url);
    assert.equal(req.headers['x-api-signature'], V.getMasquerade.sig);
  });

  it('refuses a bare user id as masqueradeAs before sending anything: it would address an account', async () => {
    const m = mockProvider();
    await assert.rejects(
      m.client.call(readTransfer, { params: { transferId: 'TF_ABC123' }, masqueradeAs: 'US_XYZ789' }),
      (err: unknown) => {
        assert.ok(err instanceof ProviderInputError);
        assert.equal(err.field, 'masqueradeAs');
        assert.match(err.message, /user:US_XYZ789/);
        return true;
      },
    );
    assert.equal(m.captured.length, 0);
  });

  it('bearer auth sends the secret as the token and no signature (docs/provider-contract.md §5.2)', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    const seen: Record<string, string>[] = [];
    agent
      .get('https://api.example.test')
      .intercept({ path: (p) => p.startsWith('/v2/wallets'), method: 'POST' })
      .reply((opts) => {
        seen.push(opts.headers as Record<string, string>);
        return { statusCode: 200, data: JSON.stringify(walletBody) };
      });
    const client = new ProviderClient({
      baseUrl: 'https://api.example.test',
      auth: { kind: 'bearer', token: SECRET },
      dispatcher: agent,
    });
    await client.call(createWallet, { body: { name: 'Zoë' } });
    assert.equal(seen[0]!.authorization, `Bearer ${SECRET}`);
    assert.equal(seen[0]!['x-api-signature'], undefined);
  });
});
