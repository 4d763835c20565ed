import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { request } from 'undici';
import { ProviderClient } from '../../src/provider/client.js';
import { createWallet, listWalletTransactions, readTransfer, readWallet } from '../../src/provider/endpoints.js';
import { ProviderError } from '../../src/provider/errors.js';
import { errorBody } from '../../src/provider/schemas/error.js';
import { requestSignature } from '../../src/provider/signing.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { walletSrn } from '../../src/provider/srn.js';

const API_KEY = 'AK-UNIT';
const SECRET = 'SK-UNIT-SECRET-0001';

describe('sandbox provider: auth and error bodies', () => {
  let sandbox: Sandbox;
  let url: string;
  const client = (over: Partial<ConstructorParameters<typeof ProviderClient>[0]> = {}) =>
    new ProviderClient({ baseUrl: url, auth: { kind: 'signature', apiKey: API_KEY, secretKey: SECRET }, ...over });
  const walletCount = () => Object.keys(sandbox.ctx.store.state.wallets).length;

  /** Expects a ProviderError with the documented body, and returns it. */
  async function fails(
    call: Promise<unknown>,
    status: number,
    type: string,
    errorCode?: RegExp,
  ): Promise<ProviderError> {
    const err = await call.then(
      () => assert.fail('expected a failure'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof ProviderError, String(err));
    assert.equal(err.status, status);
    assert.equal(err.body.type, type);
    assert.equal(err.body.language, 'en');
    assert.match(err.body.exceptionId, /^test_/);
    assert.equal(typeof err.body.transient, 'boolean');
    if (errorCode) assert.match(err.body.errorCode ?? '', errorCode);
    return err;
  }

  before(async () => {
    sandbox = createSandbox({ apiKey: API_KEY, secretKey: SECRET });
    url = await sandbox.listen(0);
  });
  after(async () => sandbox?.close());

  it('accepts a correctly signed request and its response parses with the client schema', async () => {
    const wallet = await client().call(createWallet, {
      body: { name: 'u1', callbackUrl: 'http://127.0.0.1:9/callbacks' },
    });
    assert.match(wallet.id, /^WA_[A-Z0-9]{11}$/);
    assert.equal(wallet.srn, walletSrn(wallet.id));
    assert.equal(wallet.status, null);
    assert.deepEqual(Object.keys(wallet.depositAddresses).sort(), ['BTC', 'ETH']);
    assert.deepEqual(wallet.balances, {});
    const read = await client().call(readWallet, { params: { walletId: wallet.id } });
    assert.equal(read.id, wallet.id);
    assert.deepEqual((await client().call(listWalletTransactions, { params: { walletId: wallet.id } })).data, []);
  });

  it('refuses a wrong signature, and creates nothing', async () => {
    const before = walletCount();
    await fails(
      client({ auth: { kind: 'signature', apiKey: API_KEY, secretKey: 'wrong' } }).call(createWallet, {
        body: { name: 'x' },
      }),
      401,
      'AccessDeniedException',
      /invalidSignature/,
    );
    assert.equal(walletCount(), before);
  });

  it('refuses a stale timestamp', async () => {
    await fails(
      client({ now: () => Date.now() - 10 * 60_000 }).call(createWallet, { body: { name: 'x' } }),
      401,
      'AccessDeniedException',
      /staleTimestamp/,
    );
  });

  it('refuses an unknown API key', async () => {
    await fails(
      client({ auth: { kind: 'signature', apiKey: 'AK-NOBODY', secretKey: SECRET } }).call(createWallet, {
        body: { name: 'x' },
      }),
      401,
      'AccessDeniedException',
      /invalidApiKey/,
    );
  });

  it('refuses a request without credentials', async () => {
    const res = await request(`${url}/v3/transfers/TF_1`);
    assert.equal(res.statusCode, 401);
    const body = errorBody.parse(await res.body.json());
    assert.equal(body.type, 'AccessDeniedException');
  });

  it('accepts bearer auth with the secret key, refuses an unknown token', async () => {
    const wallet = await client({ auth: { kind: 'bearer', token: SECRET } }).call(createWallet, {
      body: { name: 'bearer' },
    });
    assert.match(wallet.id, /^WA_/);
    await fails(
      client({ auth: { kind: 'bearer', token: 'SK-NOPE' } }).call(createWallet, { body: { name: 'x' } }),
      401,
      'AccessDeniedException',
    );
  });

  it('verifies over the URL as received, including query parameters it does not use', async () => {
    const wallet = await client().call(createWallet, { body: { name: 'fmt' }, query: { format: 'json' } });
    assert.match(wallet.id, /^WA_/);
  });

  it('refuses a body that differs from the one signed', async () => {
    const signedUrl = `${url}/v2/wallets?timestamp=${Date.now()}`;
    const sig = requestSignature(SECRET, signedUrl, '{"name":"a"}');
    const res = await request(signedUrl, {
      method: 'POST',
      headers: {
        'x-api-key': API_KEY,
        'x-api-signature': sig,
        'x-api-version': '2',
        'content-type': 'application/json',
      },
      body: '{"name":"b"}',
    });
    assert.equal(res.statusCode, 401);
    assert.equal(errorBody.parse(await res.body.json()).errorCode, 'accessDenied.invalidSignature');
  });

  /** A correctly signed raw request, for bodies the client would refuse to send. */
  async function signedRaw(
    method: string,
    path: string,
    body: string,
    headers: Record<string, string> = { 'x-api-version': '2' },
  ) {
    const signedUrl = `${url}${path}?timestamp=${Date.now()}`;
    const res = await request(signedUrl, {
      method: method as 'POST',
      headers: {
        'x-api-key': API_KEY,
        'x-api-signature': requestSignature(SECRET, signedUrl, body),
        'content-type': 'application/json',
        ...headers,
      },
      body,
    });
    return { status: res.statusCode, body: errorBody.parse(await res.body.json()) };
  }

  it('answers bad input with a ValidationException naming the field, and creates nothing', async () => {
    const before = walletCount();
    const missing = await signedRaw('POST', '/v2/wallets', '{"notes":"no name"}');
    assert.equal(missing.status, 400);
    assert.equal(missing.body.type, 'ValidationException');
    assert.equal(missing.body.problematicField, 'name');
    assert.equal(missing.body.subType, 'FIELD_REQUIRED');
    const badType = await signedRaw('POST', '/v2/wallets', '{"name":"x","type":"GOLD"}');
    assert.equal(badType.body.problematicField, 'type');
    assert.equal(badType.body.subType, 'INVALID_VALUE');
    const notJson = await signedRaw('POST', '/v2/wallets', 'name=x');
    assert.equal(notJson.status, 400);
    assert.equal(walletCount(), before);
  });

  it('requires X-Api-Version: 2 on v2 calls', async () => {
    const answer = await signedRaw('POST', '/v2/wallets', '{"name":"x"}', {});
    assert.equal(answer.status, 400);
    assert.equal(answer.body.problematicField, 'X-Api-Version');
  });

  it('answers an unknown or foreign transfer with 404 NotFoundException', async () => {
    await fails(client().call(readTransfer, { params: { transferId: 'TF_UNKNOWN' } }), 404, 'NotFoundException');
  });

  it('replays a request with the same Idempotency-Key instead of creating twice; refuses the key for another body', async () => {
    const created = await client().call(createWallet, {
      body: { name: 'idem' },
      idempotencyKey: 'open-wallet:idem/create-wallet',
    });
    const before = walletCount();
    const replayed = await client().call(createWallet, {
      body: { name: 'idem' },
      idempotencyKey: 'open-wallet:idem/create-wallet',
    });
    assert.equal(replayed.id, created.id);
    assert.equal(walletCount(), before);
    await fails(
      client().call(createWallet, { body: { name: 'other' }, idempotencyKey: 'open-wallet:idem/create-wallet' }),
      400,
      'ValidationException',
    );
  });

  it('operator routes refuse bad input with the same error body and change nothing', async () => {
    const wallet = await client().call(createWallet, { body: { name: 'op' } });
    const post = async (path: string, body: unknown) => {
      const res = await request(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.statusCode, json: (await res.body.json()) as { problematicField?: string; type?: string } };
    };
    const before = Object.keys(sandbox.ctx.store.state.transactions).length;
    const neg = await post(`/sandbox/wallets/${wallet.id}/deposits`, { currency: 'BTC', amount: -1 });
    assert.equal(neg.status, 400);
    assert.equal(neg.json.problematicField, 'amount');
    const cur = await post(`/sandbox/wallets/${wallet.id}/deposits`, { currency: 'DOGE', amount: 1 });
    assert.equal(cur.json.problematicField, 'currency');
    const nowallet = await post('/sandbox/wallets/WA_NOPE/deposits', { currency: 'BTC', amount: 1 });
    assert.equal(nowallet.status, 404);
    // An id that names an Object.prototype member is just an unknown id.
    const proto = await post('/sandbox/wallets/__proto__/deposits', { currency: 'BTC', amount: 1 });
    assert.equal(proto.status, 404);
    const protoTx = await post('/sandbox/transactions/constructor/confirm', {});
    assert.equal(protoTx.status, 404);
    assert.equal(Object.keys(sandbox.ctx.store.state.transactions).length, before);
  });
});

describe('sandbox provider: state survives a restart', () => {
  const dir = mkdtempSync(join(tmpdir(), 'payflows-sandbox-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('a wallet created before the restart is still there after it', async () => {
    const stateFile = join(dir, 'state.json');
    const first = createSandbox({ apiKey: API_KEY, secretKey: SECRET, stateFile });
    const url1 = await first.listen(0);
    const wallet = await new ProviderClient({
      baseUrl: url1,
      auth: { kind: 'signature', apiKey: API_KEY, secretKey: SECRET },
    }).call(createWallet, { body: { name: 'durable' } });
    await first.close();

    const second = createSandbox({ apiKey: API_KEY, secretKey: SECRET, stateFile });
    const url2 = await second.listen(0);
    try {
      const again = await new ProviderClient({
        baseUrl: url2,
        auth: { kind: 'signature', apiKey: API_KEY, secretKey: SECRET },
      }).call(readWallet, { params: { walletId: wallet.id } });
      assert.equal(again.name, 'durable');
    } finally {
      await second.close();
    }
  });
});
