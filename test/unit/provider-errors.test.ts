import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApplicationFailure } from '@temporalio/common';
import { MockAgent } from 'undici';
import { toActivityFailure } from '../../activities/provider-failure.js';
import { ProviderClient } from '../../src/provider/client.js';
import { readTransfer } from '../../src/provider/endpoints.js';
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
});
