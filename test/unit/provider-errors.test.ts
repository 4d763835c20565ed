import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApplicationFailure } from '@temporalio/common';
import { MockAgent } from 'undici';
import { toActivityFailure } from '../../activities/provider-failure.js';
import { ProviderClient } from '../../src/provider/client.js';
import { createWallet, readTransfer } from '../../src/provider/endpoints.js';
import { ProviderContractError, ProviderError, ProviderInputError, ProviderUnavailableError } from '../../src/provider/errors.js';

function clientAnswering(status: number, body: string) {
  const agent = new MockAgent();
  agent.disableNetConnect();
  let calls = 0;
  agent.get('https://p.test').intercept({ path: () => true, method: () => true }).reply(() => {
    calls += 1;
    return { statusCode: status, data: body };
  }).persist();
  const client = new ProviderClient({ baseUrl: 'https://p.test', auth: { kind: 'signature', apiKey: 'AK', secretKey: 'SK' }, dispatcher: agent });
  return { client, calls: () => calls };
}

const body = (type: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ language: 'en', exceptionId: 'test_ABC', type, message: 'what happened', transient: false, ...extra });

const read = (client: ProviderClient) => client.call(readTransfer, { params: { transferId: 'TF_1' } });

describe('provider errors: what is retried and what a person is told', () => {
  it('auth failure: not retryable, and the message names the call, type, code and exception id', async () => {
    const { client } = clientAnswering(401, body('AccessDeniedException', { errorCode: 'accessDenied.invalidSession' }));
    await assert.rejects(read(client), (err: unknown) => {
      assert.ok(err instanceof ProviderError);
      assert.equal(err.retryable, false);
      assert.equal(err.body.errorCode, 'accessDenied.invalidSession');
      assert.match(err.message, /GET \/v3\/transfers\/:transferId \(read transfer\) failed with 401 AccessDeniedException \(accessDenied\.invalidSession\).*test_ABC/);
      assert.match(err.message, /PROVIDER_API_KEY/);
      return true;
    });
  });

  it('validation and not-found are not retryable; 429, 5xx and transient errors are', async () => {
    const cases: Array<[number, string, boolean]> = [
      [400, body('ValidationException', { problematicField: 'name' }), false],
      [404, body('NotFoundException'), false],
      [429, body('RateLimitException', { transient: true }), true],
      [500, body('UnknownException'), true],
      [400, body('TransferException', { transient: true }), true],
      [502, '<html>bad gateway</html>', true],
    ];
    for (const [status, text, retryable] of cases) {
      const { client } = clientAnswering(status, text);
      await assert.rejects(read(client), (err: unknown) => {
        assert.ok(err instanceof ProviderError, `${status} gives a ProviderError`);
        assert.equal(err.retryable, retryable, `${status} ${text.slice(0, 40)}`);
        return true;
      });
    }
  });

  it('no answer at all is retryable', async () => {
    const client = new ProviderClient({ baseUrl: 'http://127.0.0.1:1', auth: { kind: 'bearer', token: 'x' }, timeoutMs: 2_000 });
    await assert.rejects(read(client), (err: unknown) => err instanceof ProviderUnavailableError && err.retryable);
    await client.close();
  });

  it('a 200 whose body breaks the contract names the field and is not retried', async () => {
    const { client } = clientAnswering(200, JSON.stringify({ id: 'TF_1', status: 'COMPLETED' }));
    await assert.rejects(read(client), (err: unknown) => err instanceof ProviderContractError && /owner/.test(err.message) && !err.retryable);
  });

  it('a bad id is refused before any request, naming the field', async () => {
    const { client, calls } = clientAnswering(200, '{}');
    await assert.rejects(client.call(readTransfer, { params: { transferId: 'WA_1' } }), (err: unknown) => {
      assert.ok(err instanceof ProviderInputError);
      assert.equal(err.field, 'transferId');
      assert.match(err.message, /TF_<id>/);
      return true;
    });
    assert.equal(calls(), 0);
  });

  it('activities turn non-retryable provider errors into non-retryable failures with the details to act on', async () => {
    const { client } = clientAnswering(401, body('AccessDeniedException', { errorCode: 'accessDenied.invalidSignature' }));
    const err = await read(client).catch((e: unknown) => e);
    const failure = toActivityFailure(err);
    assert.ok(failure instanceof ApplicationFailure);
    assert.equal(failure.nonRetryable, true);
    assert.equal(failure.type, 'AccessDeniedException');
    assert.deepEqual(
      { ...(failure.details?.[0] as object) },
      { call: 'GET /v3/transfers/:transferId (read transfer)', status: 401, type: 'AccessDeniedException', errorCode: 'accessDenied.invalidSignature', exceptionId: 'test_ABC', message: 'what happened', problematicField: '' },
    );
    const transient = new ProviderError('x', 503, { language: 'en', exceptionId: 'e', type: 'UnknownException', message: 'm', transient: true });
    assert.equal(toActivityFailure(transient), transient, 'retryable errors pass through for Temporal to retry');
  });

  // open-points "Errors": the optional fields may be empty strings; a provider may equally send null.
  it('an error body with null optional fields keeps its type instead of becoming an unexpected response', async () => {
    const { client } = clientAnswering(400, body('ValidationException', { errorCode: null, subType: null, compositeType: null, problematicField: null, problematicValue: null }));
    await assert.rejects(read(client), (err: unknown) => {
      assert.ok(err instanceof ProviderError);
      assert.equal(err.body.type, 'ValidationException');
      assert.equal(err.body.errorCode, undefined);
      assert.equal(err.body.problematicField, undefined);
      assert.equal(err.retryable, false);
      assert.match(err.message, /failed with 400 ValidationException: what happened \[exceptionId test_ABC\]/);
      return true;
    });
  });

  // open-points "Errors": `transient: true means the same request may safely be tried again`, so
  // false on a creating call (POST) means a blind repeat may create twice; reads repeat safely.
  it('a 5xx saying transient: false is not retried on a creating call, and the failure says to check first', async () => {
    const create = (client: ProviderClient) => client.call(createWallet, { body: { name: 'u1' }, idempotencyKey: 'k1' });
    const cases: Array<[string, number, string, (c: ProviderClient) => Promise<unknown>, boolean]> = [
      ['POST, 500, transient false', 500, body('UnknownException', { transient: false }), create, false],
      ['POST, 503, transient true', 503, body('UnknownException', { transient: true }), create, true],
      ['POST, 502 without the documented body', 502, '<html>bad gateway</html>', create, true],
      ['POST, 500, transient not stated', 500, JSON.stringify({ language: 'en', exceptionId: 'test_ABC', type: 'UnknownException', message: 'm' }), create, true],
      ['GET, 500, transient false', 500, body('UnknownException', { transient: false }), read, true],
    ];
    for (const [name, status, text, call, retryable] of cases) {
      const { client, calls } = clientAnswering(status, text);
      const err = await call(client).catch((e: unknown) => e);
      assert.ok(err instanceof ProviderError, name);
      assert.equal(err.retryable, retryable, name);
      assert.equal(calls(), 1, `${name}: the client itself never repeats`);
      const failure = toActivityFailure(err);
      if (retryable) assert.equal(failure, err, `${name}: passed through for Temporal to retry`);
      else {
        assert.ok(failure instanceof ApplicationFailure && failure.nonRetryable, name);
        assert.match(failure.message, /POST \/v2\/wallets \(create wallet\) failed with 500 UnknownException.*check whether it was created/);
      }
    }
  });
});
