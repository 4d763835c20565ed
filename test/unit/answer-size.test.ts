import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { toActivityFailure } from '../../activities/provider-failure.js';
import { AnswerTooLargeError } from '../../src/capped-body.js';
import { S3ClaimStore } from '../../src/claims/s3-store.js';
import { ClaimUnavailableError } from '../../src/claims/store.js';
import { loadConfig } from '../../src/config.js';
import { ProviderClient } from '../../src/provider/client.js';
import { readTransfer } from '../../src/provider/endpoints.js';

// An answer is read up to a limit, not whole: a provider, a proxy or a storage endpoint that
// answers without end would otherwise take the worker's memory with it.

describe('answers from the provider and the claim store are read up to a limit', () => {
  let server: Server;
  let base: string;
  before(async () => {
    // Answers 32 MB of blanks in 64 KB pieces, with no Content-Length, whatever is asked (an
    // endless answer is the same, but would take a failing test's memory with it).
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      let left = 512;
      res.on('error', () => undefined);
      const more = () => {
        while (left > 0 && !res.destroyed) {
          left -= 1;
          if (!res.write(Buffer.alloc(64 * 1024, 0x20))) return void res.once('drain', more);
        }
        res.end();
      };
      more();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => server.close());

  it(
    'a provider answer over PROVIDER_MAX_ANSWER_BYTES fails naming the call, the limit and what to do; it is retried, not taken as a contract breach',
    { timeout: 20_000 },
    async () => {
      const client = new ProviderClient({
        baseUrl: base,
        auth: { kind: 'signature', apiKey: 'AK', secretKey: 'SK' },
        maxAnswerBytes: 256 * 1024,
      });
      await assert.rejects(client.call(readTransfer, { params: { transferId: 'TF_1' } }), (err: unknown) => {
        assert.ok(err instanceof AnswerTooLargeError, String(err));
        assert.match(
          err.message,
          /^GET \/v3\/transfers\/:transferId \(read transfer\) answered with more than 262144 bytes/,
        );
        assert.match(err.message, /PROVIDER_MAX_ANSWER_BYTES/);
        assert.equal(err.retryable, true);
        assert.equal(toActivityFailure(err), err, 'retried under the activity retry policy');
        return true;
      });
      await client.close();
      assert.equal(loadConfig({}).provider.maxAnswerBytes, 8 * 1024 * 1024);
      assert.throws(() => loadConfig({ PROVIDER_MAX_ANSWER_BYTES: '10' }), /PROVIDER_MAX_ANSWER_BYTES: /);
    },
  );

  it(
    'a claim store answer over the limit fails as the store being unavailable, naming the request and what to check',
    { timeout: 20_000 },
    async () => {
      const store = new S3ClaimStore(
        {
          bucket: 'claims',
          prefix: 'p',
          endpoint: base,
          credentials: { accessKeyId: 'AKID', secretAccessKey: 'SECRET', region: 'us-east-1' },
        },
        { key: randomBytes(32), maxAnswerBytes: 256 * 1024 },
      );
      const ref = { ref: `s3:${'a'.repeat(64)}`, size: 1, contentType: 'text/plain', sha256: '0'.repeat(64) };
      await assert.rejects(store.get(ref), (err: unknown) => {
        assert.ok(err instanceof ClaimUnavailableError, String(err));
        assert.match(err.message, /^claim store GET s3:\/\/claims\/p answered with more than 262144 bytes/);
        assert.match(err.message, /AWS_ENDPOINT_URL_S3/);
        return true;
      });
      await assert.rejects(store.sweep(Date.now()), /claim store GET s3:\/\/claims\/p answered with more than/);
      await store.close();
    },
  );
});
