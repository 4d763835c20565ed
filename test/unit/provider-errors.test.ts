import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, renameSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ApplicationFailure } from '@temporalio/common';
import { MockAgent } from 'undici';
import { toActivityFailure } from '../../activities/provider-failure.js';
import { S3ClaimStore, s3Location } from '../../src/claims/s3-store.js';
import { ClaimGoneError, LocalClaimStore, putValue } from '../../src/claims/store.js';
import { ProviderClient } from '../../src/provider/client.js';
import { calculateLimits, createWallet, readTransfer } from '../../src/provider/endpoints.js';
import {
  ProviderContractError,
  ProviderError,
  ProviderInputError,
  ProviderUnavailableError,
} from '../../src/provider/errors.js';

function clientAnswering(status: number, body: string) {
  const agent = new MockAgent();
  agent.disableNetConnect();
  let calls = 0;
  agent
    .get('https://p.test')
    .intercept({ path: () => true, method: () => true })
    .reply(() => {
      calls += 1;
      return { statusCode: status, data: body };
    })
    .persist();
  const client = new ProviderClient({
    baseUrl: 'https://p.test',
    auth: { kind: 'signature', apiKey: 'AK', secretKey: 'SK' },
    dispatcher: agent,
  });
  return { client, calls: () => calls };
}

const body = (type: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    language: 'en',
    exceptionId: 'test_ABC',
    type,
    message: 'what happened',
    transient: false,
    ...extra,
  });

const read = (client: ProviderClient) => client.call(readTransfer, { params: { transferId: 'TF_1' } });
const limitsOf = (client: ProviderClient) =>
  client.call(calculateLimits, { body: { accountId: 'AC_1', userId: 'US_1' } });

describe('provider errors: what is retried and what a person is told', () => {
  it('auth failure: not retryable, and the message names the call, type, code and exception id', async () => {
    const { client } = clientAnswering(
      401,
      body('AccessDeniedException', { errorCode: 'accessDenied.invalidSession' }),
    );
    await assert.rejects(read(client), (err: unknown) => {
      assert.ok(err instanceof ProviderError);
      assert.equal(err.retryable, false);
      assert.equal(err.body.errorCode, 'accessDenied.invalidSession');
      assert.match(
        err.message,
        /GET \/v3\/transfers\/:transferId \(read transfer\) failed with 401 AccessDeniedException \(accessDenied\.invalidSession\).*test_ABC/,
      );
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
    const client = new ProviderClient({
      baseUrl: 'http://127.0.0.1:1',
      auth: { kind: 'bearer', token: 'x' },
      timeoutMs: 2_000,
    });
    await assert.rejects(read(client), (err: unknown) => err instanceof ProviderUnavailableError && err.retryable);
    await client.close();
  });

  it('a 200 whose body breaks the contract names the field and is not retried', async () => {
    const { client } = clientAnswering(200, JSON.stringify({ id: 'TF_1', status: 'COMPLETED' }));
    await assert.rejects(
      read(client),
      (err: unknown) => err instanceof ProviderContractError && /owner/.test(err.message) && !err.retryable,
    );
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
    const { client } = clientAnswering(
      401,
      body('AccessDeniedException', { errorCode: 'accessDenied.invalidSignature' }),
    );
    const err = await read(client).catch((e: unknown) => e);
    const failure = toActivityFailure(err);
    assert.ok(failure instanceof ApplicationFailure);
    assert.equal(failure.nonRetryable, true);
    assert.equal(failure.type, 'AccessDeniedException');
    assert.deepEqual(
      { ...(failure.details?.[0] as object) },
      {
        call: 'GET /v3/transfers/:transferId (read transfer)',
        status: 401,
        type: 'AccessDeniedException',
        errorCode: 'accessDenied.invalidSignature',
        subType: '',
        exceptionId: 'test_ABC',
        problematicField: '',
      },
    );
    const transient = new ProviderError('x', 503, {
      language: 'en',
      exceptionId: 'e',
      type: 'UnknownException',
      message: 'm',
      transient: true,
    });
    assert.equal(toActivityFailure(transient), transient, 'retryable errors pass through for Temporal to retry');
  });

  it('a request that cannot be sent as asked (a header undici refuses) fails at once, not as an outage', async () => {
    const client = new ProviderClient({
      baseUrl: 'http://127.0.0.1:1',
      auth: { kind: 'bearer', token: 'x' },
      timeoutMs: 2_000,
    });
    for (const key of ['open-wallet:é\n✓/create-wallet', 'open-wallet:✓/create-wallet']) {
      const err = await client
        .call(createWallet, { body: { name: 'w' }, idempotencyKey: key })
        .catch((e: unknown) => e);
      assert.ok(err instanceof Error, 'the call fails');
      assert.equal(
        (err as { retryable?: boolean }).retryable,
        false,
        'not retryable: the same request fails the same way',
      );
      assert.match(err.message, /could not be sent/);
      assert.doesNotMatch(err.message, /got no answer/);
      const failure = toActivityFailure(err);
      assert.ok(failure instanceof ApplicationFailure);
      assert.equal(failure.nonRetryable, true);
      assert.equal(failure.type, 'ProviderInputError');
    }
    await client.close();
  });

  it('local argument errors are classified as non-retryable wherever they come from', () => {
    const undiciRefusal = Object.assign(new Error('invalid idempotency-key header'), {
      name: 'InvalidArgumentError',
      code: 'UND_ERR_INVALID_ARG',
    });
    const nodeRefusal = Object.assign(new TypeError('Invalid character in header content ["x"]'), {
      code: 'ERR_INVALID_CHAR',
    });
    for (const err of [
      undiciRefusal,
      nodeRefusal,
      new Error('wrapped', { cause: undiciRefusal }),
      new ProviderInputError('POST /v2/wallets (create wallet)', 'name', 'too long'),
    ]) {
      const failure = toActivityFailure(err);
      assert.ok(failure instanceof ApplicationFailure, err.message);
      assert.equal(failure.nonRetryable, true, err.message);
    }
    // A network failure stays retryable.
    const refused = new ProviderUnavailableError(
      'GET /x (read)',
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }),
    );
    assert.equal(refused.retryable, true);
    assert.equal(toActivityFailure(refused), refused);
  });

  it("keeps the provider's message and the request's values out of the error and the activity failure", async () => {
    const ssn = '078-05-1120';
    const { client } = clientAnswering(
      400,
      body('ValidationException', {
        message: `individualSsn ${ssn} is not a valid SSN`,
        errorCode: 'validation.invalidValue',
        problematicField: 'profileFields.0.value',
        problematicValue: ssn,
      }),
    );
    const err = await read(client).catch((e: unknown) => e);
    assert.ok(err instanceof ProviderError);
    assert.equal(err.body.problematicValue, ssn, 'the body is kept for code that needs it');
    assert.doesNotMatch(err.message, new RegExp(ssn));
    assert.match(
      err.message,
      /400 ValidationException \(validation\.invalidValue\): field profileFields\.0\.value \[exceptionId test_ABC\]/,
    );
    const failure = toActivityFailure(err) as ApplicationFailure;
    const seen = JSON.stringify([
      failure.message,
      failure.details,
      failure.cause?.message,
      failure.cause?.stack,
      failure.stack,
    ]);
    assert.ok(!seen.includes(ssn), seen);

    const proxy = clientAnswering(502, `<html>upstream echoed ${ssn}</html>`);
    const gateway = await read(proxy.client).catch((e: unknown) => e);
    assert.ok(gateway instanceof ProviderError);
    assert.ok(!gateway.message.includes(ssn), 'an undocumented body is not quoted either');
    const garbled = clientAnswering(200, `not json ${ssn}`);
    const contract = await read(garbled.client).catch((e: unknown) => e);
    assert.ok(contract instanceof ProviderContractError);
    assert.ok(!contract.message.includes(ssn), 'nor a body that is not JSON');
  });

  // docs/provider-contract.md §OP-1: the optional fields may be empty strings; a provider may equally send null.
  it('an error body with null optional fields keeps its type instead of becoming an unexpected response', async () => {
    const { client } = clientAnswering(
      400,
      body('ValidationException', {
        errorCode: null,
        subType: null,
        compositeType: null,
        problematicField: null,
        problematicValue: null,
      }),
    );
    await assert.rejects(read(client), (err: unknown) => {
      assert.ok(err instanceof ProviderError);
      assert.equal(err.body.type, 'ValidationException');
      assert.equal(err.body.errorCode, undefined);
      assert.equal(err.body.problematicField, undefined);
      assert.equal(err.retryable, false);
      assert.match(err.message, /failed with 400 ValidationException: \[exceptionId test_ABC\]/);
      return true;
    });
  });

  // docs/provider-contract.md §OP-1: `transient: true means the same request may safely be tried again`, so
  // false on a creating call (POST) means a blind repeat may create twice; reads repeat safely.
  it('a 5xx saying transient: false is not retried on a creating call, and the failure says to check first', async () => {
    const create = (client: ProviderClient) =>
      client.call(createWallet, { body: { name: 'u1' }, idempotencyKey: 'k1' });
    const cases: Array<[string, number, string, (c: ProviderClient) => Promise<unknown>, boolean]> = [
      ['POST, 500, transient false', 500, body('UnknownException', { transient: false }), create, false],
      ['POST, 503, transient true', 503, body('UnknownException', { transient: true }), create, true],
      ['POST, 502 without the documented body', 502, '<html>bad gateway</html>', create, true],
      [
        'POST, 500, transient not stated',
        500,
        JSON.stringify({ language: 'en', exceptionId: 'test_ABC', type: 'UnknownException', message: 'm' }),
        create,
        true,
      ],
      ['GET, 500, transient false', 500, body('UnknownException', { transient: false }), read, true],
      // A POST that only reads (docs/provider-contract.md §8's limits calculation) creates nothing: repeating it is safe.
      ['POST that reads, 500, transient false', 500, body('UnknownException', { transient: false }), limitsOf, true],
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
        assert.match(
          failure.message,
          /POST \/v2\/wallets \(create wallet\) failed with 500 UnknownException.*check whether it was created/,
        );
      }
    }
  });
});

// A claim that cannot be read for now (the store's server in trouble, a disk that hiccups, a key
// this worker lacks) is still there: the activity must be retried, never end as a refusal, since
// the processes delete a claim the provider refused and the person's submission would be lost.
describe('activity failures: only errors known to be permanent end an activity at once', () => {
  const endsAtOnce = (err: unknown) => {
    const failure = toActivityFailure(err);
    return failure instanceof ApplicationFailure && failure.nonRetryable;
  };
  const dir = mkdtempSync(join(tmpdir(), 'payflows-failures-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('a claim store that fails for now (S3 5xx, no answer, an I/O error, a key this worker lacks) is retried', async () => {
    const server = createServer((_req, res) => res.writeHead(503).end('<Error><Code>SlowDown</Code></Error>'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    const s3 = (endpoint: string) =>
      new S3ClaimStore(
        s3Location('s3://claims/p', {
          AWS_ACCESS_KEY_ID: 'a',
          AWS_SECRET_ACCESS_KEY: 's',
          AWS_ENDPOINT_URL_S3: endpoint,
        }),
        { key: randomBytes(32) },
      );
    const ref = { ref: `s3:${'a'.repeat(64)}`, size: 1, contentType: 'text/plain', sha256: '0'.repeat(64) };
    const busy = s3(`http://127.0.0.1:${port}`);
    const gone = s3('http://127.0.0.1:1');
    try {
      for (const [name, store] of [
        ['a 503', busy],
        ['no answer', gone],
      ] as const) {
        const err = await store.get(ref).catch((e: unknown) => e);
        assert.ok(err instanceof Error, name);
        assert.equal(endsAtOnce(err), false, `${name}: ${err.message}`);
      }
    } finally {
      await busy.close();
      await gone.close();
      server.close();
    }

    const key = randomBytes(32);
    const local = new LocalClaimStore(dir, { key });
    const doc = await local.put(Buffer.from('passport'), 'image/jpeg');
    // Sealed under a key this worker does not have yet (a rotation under way): another worker, or
    // this one once configured, reads it.
    const lacking = await new LocalClaimStore(dir, { key: randomBytes(32) }).get(doc).catch((e: unknown) => e);
    assert.equal(endsAtOnce(lacking), false, (lacking as Error).message);
    // A file-system failure other than "no such file" (here: a directory where the file was).
    const file = join(dir, doc.ref.slice('local:'.length));
    renameSync(file, `${file}.aside`);
    mkdirSync(file);
    const hiccup = await local.get(doc).catch((e: unknown) => e);
    assert.equal(endsAtOnce(hiccup), false, (hiccup as Error).message);
    rmdirSync(file);
    renameSync(`${file}.aside`, file);
    assert.equal((await local.get(doc)).toString(), 'passport');

    for (const err of [
      new Error('something nobody foresaw'),
      Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' }),
      new TypeError('x is undefined'),
    ]) {
      assert.equal(endsAtOnce(err), false, `${err.message}: unknown errors are left to the retry policy`);
    }
  });

  it('a claim that is gone or is not what its reference says ends the activity at once, naming the claim', async () => {
    const local = new LocalClaimStore(dir, { key: randomBytes(32) });
    const doc = await local.put(Buffer.from('original'), 'text/plain');
    await local.delete([doc]);
    const missing = await local.get(doc).catch((e: unknown) => e);
    assert.ok(missing instanceof ClaimGoneError);
    const failure = toActivityFailure(missing);
    assert.ok(failure instanceof ApplicationFailure && failure.nonRetryable);
    assert.equal(failure.type, 'ClaimGoneError', 'a type of its own: the process tells it from a refusal by it');
    assert.match(failure.message, /not in the claim store/);

    const changed = await local.put(Buffer.from('original'), 'text/plain');
    writeFileSync(join(dir, changed.ref.slice('local:'.length)), 'tampered');
    const tampered = toActivityFailure(await local.get(changed).catch((e: unknown) => e));
    assert.ok(tampered instanceof ApplicationFailure && tampered.nonRetryable, 'changed bytes');
    assert.equal(tampered.type, 'ClaimIntegrityError');
    const value = await putValue(local, '078-05-1120');
    assert.equal(
      endsAtOnce(await local.get({ ...value, sha256: 'f'.repeat(64) }).catch((e: unknown) => e)),
      true,
      'another digest',
    );
    assert.equal(
      endsAtOnce(new ProviderContractError('GET /x (read)', 'owner: required')),
      true,
      'a 2xx that breaks the contract',
    );
  });
});
