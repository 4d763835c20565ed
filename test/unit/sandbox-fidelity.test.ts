import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { request } from 'undici';
import * as api from '../../src/provider/endpoints.js';
import { ProviderError } from '../../src/provider/errors.js';
import { errorBody } from '../../src/provider/schemas/error.js';
import { callbackSignature, requestSignature } from '../../src/provider/signing.js';
import { assertFields } from '../helpers/assert.js';
import { MASTER, startSandbox, type TestSandbox } from '../helpers/sandbox.js';

// The sandbox against the contract's words, where an audit found it treating a client written to
// the contract differently than the real service would.

const DAY = 86_400_000;

describe('sandbox fidelity: limits (docs/provider-contract.md §8)', () => {
  let sandbox: TestSandbox;
  before(async () => {
    sandbox = await startSandbox();
    await sandbox.op('POST', `/sandbox/accounts/${MASTER.accountId}/features`, { debitCardL2: true });
  });
  after(async () => sandbox?.stop());

  type Done = {
    order: { status: string; failureReason: string | null };
    limit?: { errorCode: string; message: string };
  };
  const buy = async (amount: number, extra: Record<string, unknown> = {}) => {
    const reserved = await sandbox.master.call(api.reserveOrder, {
      body: { sourceAmount: amount, sourceCurrency: 'USD', destCurrency: 'USD', ...extra },
    });
    return sandbox.op<Done>('POST', `/sandbox/reservations/${reserved.reservation}/complete`);
  };

  it('"25,000 monthly" (international): three weekly purchases of 10,000 within 30 days meet the monthly limit, named in the refusal', async () => {
    const user = await sandbox.master.call(api.createUser, {
      body: { fields: { country: 'DE' }, scopes: ['DEBIT_CARD_L2'] },
    });
    await sandbox.op('POST', `/sandbox/users/${user.id}/approve`);
    const owner = `user:${user.id}`;
    assert.equal((await buy(10_000, { owner })).order.status, 'COMPLETE');
    sandbox.clock.now += 8 * DAY;
    assert.equal((await buy(10_000, { owner })).order.status, 'COMPLETE');
    sandbox.clock.now += 8 * DAY;
    // Weekly (10,000) and yearly (250,000) allow it; 20,000 spent in 16 days leaves 5,000 of the month.
    const third = await buy(10_000, { owner });
    assertFields(third.order, { status: 'FAILED', failureReason: 'limits.monthlyLimitReached' });
    assert.match(third.limit!.message, /monthly limit of 25000 USD allows 5000 more/);
    assert.equal(
      (await buy(5_000, { owner })).order.status,
      'COMPLETE',
      'what remains of the month can still be bought',
    );
    // A month is 30 days: once the first purchase is 30 days old, its amount is free again.
    sandbox.clock.now += 15 * DAY;
    assert.equal((await buy(10_000, { owner })).order.status, 'COMPLETE');
  });

  it('"7,500 monthly" (USA): a monthly limit equal to the weekly one still binds across weeks', async () => {
    const user = await sandbox.master.call(api.createUser, {
      body: { fields: { country: 'US' }, scopes: ['DEBIT_CARD_L2'] },
    });
    await sandbox.op('POST', `/sandbox/users/${user.id}/approve`);
    const owner = `user:${user.id}`;
    assert.equal((await buy(7_500, { owner })).order.status, 'COMPLETE');
    sandbox.clock.now += 8 * DAY;
    const next = await buy(100, { owner });
    assertFields(next.order, { status: 'FAILED', failureReason: 'limits.monthlyLimitReached' });
  });

  it('docs/provider-contract.md §8 rule 1: higher limits need an owner; a reservation without one meets the standard limits, not none', async () => {
    const over = await buy(600);
    assertFields(over.order, { status: 'FAILED', failureReason: 'limits.dailyLimitReached' });
    assert.match(over.limit!.message, /daily limit of 500 USD/);
    // The same buyer (by email) is counted across reservations.
    assert.equal((await buy(300, { email: 'buyer@example.test' })).order.status, 'COMPLETE');
    const again = await buy(300, { email: 'Buyer@example.test' });
    assertFields(again.order, { status: 'FAILED', failureReason: 'limits.dailyLimitReached' });
  });
});

describe("sandbox fidelity: callbacks of sub-accounts' wallets (docs/provider-contract.md §6.4)", () => {
  let sandbox: TestSandbox;
  const received: Array<{ body: string; signature: string | undefined }> = [];
  const receiver = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        body: Buffer.concat(chunks).toString('utf8'),
        signature: req.headers['x-api-signature'] as string | undefined,
      });
      res.end('ok');
    });
  });
  let callbackUrl: string;
  before(async () => {
    sandbox = await startSandbox();
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    callbackUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/callbacks`;
  });
  after(async () => {
    await sandbox?.stop();
    receiver.close();
  });

  it("a deposit to a wallet created with masqueradeAs is sent, keyed with the parent merchant's secret key", async () => {
    const sub = await sandbox.master.call(api.createAccount, { body: { country: 'US', subaccount: true } });
    const wallet = await sandbox.master.call(api.createWallet, {
      body: { name: 'sub-user', callbackUrl },
      masqueradeAs: sub.id,
    });
    assert.equal(wallet.owner, `account:${sub.id}`);
    const { delivery } = await sandbox.op<{ delivery: { outcomes: unknown[] } | null }>(
      'POST',
      `/sandbox/wallets/${wallet.id}/deposits`,
      { currency: 'BTC', amount: 0.5, confirmed: true },
    );
    assert.deepEqual(delivery?.outcomes, [200]);
    assert.equal(received.length, 1);
    const { body, signature } = received[0]!;
    assert.equal(JSON.parse(body).dest, wallet.srn);
    assert.equal(signature, callbackSignature(MASTER.secretKey, body));
  });
});

describe('sandbox fidelity: HTTP as HTTP allows, errors as the provider answers them', () => {
  let sandbox: TestSandbox;
  before(async () => {
    sandbox = await startSandbox();
  });
  after(async () => sandbox?.stop());

  /** A raw request; the answer must be the provider's error body (docs/provider-contract.md §OP-1). */
  async function raw(method: 'GET' | 'POST', path: string, headers: Record<string, string>, body?: string | Buffer) {
    const res = await request(`${sandbox.url}${path}`, { method, headers, body });
    const text = await res.body.text();
    return { status: res.statusCode, text, json: JSON.parse(text) as unknown };
  }
  const providerBody = (json: unknown, type: string) => {
    const parsed = errorBody.safeParse(json);
    assert.ok(parsed.success, `the provider's error body: ${JSON.stringify(json)}`);
    assert.equal(parsed.data.type, type);
    assert.match(parsed.data.exceptionId, /^test_/);
    return parsed.data;
  };
  const signed = (path: string, body = '') => {
    const url = `${sandbox.url}${path}${path.includes('?') ? '&' : '?'}timestamp=${sandbox.clock.now}`;
    return {
      path: url.slice(sandbox.url.length),
      headers: {
        'x-api-key': MASTER.apiKey,
        'x-api-signature': requestSignature(MASTER.secretKey, url, body),
        'x-api-version': '2',
      },
    };
  };

  it('an unknown route', async () => {
    const answer = await raw('GET', '/v3/nothing-here', {});
    assert.equal(answer.status, 404);
    providerBody(answer.json, 'NotFoundException');
  });

  it("a body without Content-Type, or with one the sandbox cannot read: the provider's body, and nothing is created", async () => {
    const before = Object.keys(sandbox.state.wallets).length;
    const body = JSON.stringify({ name: 'x' });
    const signedRequest = signed('/v2/wallets', body);
    for (const headers of [{ ...signedRequest.headers }, { ...signedRequest.headers, 'content-type': '' }]) {
      const answer = await raw('POST', signedRequest.path, headers, Buffer.from(body));
      // A ValidationException is 400 (docs/provider-contract.md §OP-1), not the web framework's 415.
      assert.equal(answer.status, 400, answer.text);
      const error = providerBody(answer.json, 'ValidationException');
      assert.match(`${error.problematicField} ${error.message}`, /Content-Type|body/);
    }
    assert.equal(Object.keys(sandbox.state.wallets).length, before);
  });

  it("a JSON body sent as text/plain (or another type than application/json): 400, the provider's ValidationException naming Content-Type and the type sent, and nothing is created", async () => {
    const before = Object.keys(sandbox.state.wallets).length;
    const body = JSON.stringify({ name: 'plain' });
    for (const type of ['text/plain', 'Text/Plain; charset=utf-8', 'application/x-www-form-urlencoded']) {
      const signedRequest = signed('/v2/wallets', body);
      const answer = await raw(
        'POST',
        signedRequest.path,
        { ...signedRequest.headers, 'content-type': type },
        Buffer.from(body),
      );
      assert.equal(answer.status, 400, `${type}: ${answer.text}`);
      const error = providerBody(answer.json, 'ValidationException');
      assert.equal(error.transient, false, type);
      assert.equal(error.problematicField, 'Content-Type', type);
      assert.equal(error.problematicValue, type.split(';')[0]!.toLowerCase());
      assert.match(error.message, /application\/json/, type);
    }
    assert.equal(Object.keys(sandbox.state.wallets).length, before);
  });

  it("a body too large: 413 with the provider's body", async () => {
    const big = Buffer.alloc(17 * 1024 * 1024, 0x20);
    const answer = await raw(
      'POST',
      '/v3/accounts/AC_X/individualGovernmentId',
      { 'content-type': 'application/pdf' },
      big,
    );
    assert.equal(answer.status, 413);
    providerBody(answer.json, 'ValidationException');
  });

  it("a malformed URL: 400 with the provider's body", async () => {
    const answer = await raw('GET', '/v2/wallet/%E0%A4%A', {});
    assert.equal(answer.status, 400);
    providerBody(answer.json, 'ValidationException');
  });

  it('RFC 9110: the Bearer scheme in any letter case', async () => {
    for (const scheme of ['bearer', 'BEARER', 'Bearer']) {
      const answer = await request(`${sandbox.url}/v2/wallets`, {
        method: 'POST',
        headers: {
          authorization: `${scheme} ${MASTER.secretKey}`,
          'content-type': 'application/json',
          'x-api-version': '2',
        },
        body: JSON.stringify({ name: `w-${scheme}` }),
      });
      assert.equal(answer.statusCode, 200, `${scheme}: ${await answer.body.text()}`);
      await answer.body.dump();
    }
  });

  it('RFC 9110: MIME types compared case-insensitively, by the sandbox and by the client', async () => {
    const acc = await sandbox.master.call(api.createAccount, { body: { country: 'US' } });
    const pdf = Buffer.from('%PDF-1.4 test');
    // The sandbox: a raw, correctly signed upload with an upper-case type.
    const path = `/v3/accounts/${acc.id}/individualGovernmentId?masqueradeAs=${acc.id}`;
    const signedRequest = signed(path, pdf.toString('latin1'));
    const answer = await raw(
      'POST',
      signedRequest.path,
      { ...signedRequest.headers, 'content-type': 'Application/PDF' },
      pdf,
    );
    assert.equal(answer.status, 200, answer.text);
    // The client: the same type as a caller may have it from a file's metadata.
    const up = await sandbox.master.call(api.uploadDocument, {
      params: { accountId: acc.id, fieldId: 'individualGovernmentId' },
      body: { bytes: pdf, contentType: 'IMAGE/PNG' },
      masqueradeAs: acc.id,
    });
    assert.equal(up.id, acc.id);
    await assert.rejects(
      sandbox.master.call(api.uploadDocument, {
        params: { accountId: acc.id, fieldId: 'individualGovernmentId' },
        body: { bytes: pdf, contentType: 'text/plain' },
        masqueradeAs: acc.id,
      }),
      (e: unknown) => !(e instanceof ProviderError) && /contentType/.test(String(e)),
    );
  });
});
