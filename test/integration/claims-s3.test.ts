import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ApplicationFailure } from '@temporalio/common';
import { request } from 'undici';
import { toActivityFailure } from '../../activities/provider-failure.js';
import { claimStoreFromConfig } from '../../src/claims/from-config.js';
import { S3ClaimStore, s3Location } from '../../src/claims/s3-store.js';
import { EMPTY_SHA256, signV4 } from '../../src/claims/sigv4.js';
import { putValue } from '../../src/claims/store.js';
import { loadConfig } from '../../src/config.js';
import { freePort } from '../../src/temporal/ports.js';
import { goTool, TOOLS } from '../../scripts/lib/go-tools.js';

// The claim store's S3 adapter against a real S3-compatible server: versitygw (an S3 gateway over
// plain files, Apache-2.0), built from the Go module proxy and cached like the Temporal tools.
// Signing is checked against AWS's published SigV4 example first.

const ACCESS = 'payflowsaccess';
const SECRET = randomBytes(16).toString('hex');

describe('claim store on S3-compatible storage', () => {
  let gateway: ChildProcess;
  let root: string;
  let endpoint: string;
  before(async () => {
    const bin = await goTool(TOOLS.versitygw, (line) => console.log(`[versitygw] ${line}`));
    root = mkdtempSync(join(tmpdir(), 'payflows-s3-'));
    const port = await freePort();
    endpoint = `http://127.0.0.1:${port}`;
    gateway = spawn(bin, ['--access', ACCESS, '--secret', SECRET, '--port', `127.0.0.1:${port}`, 'posix', root], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        const url = new URL(`${endpoint}/claims-test`);
        const headers = signV4(
          { method: 'PUT', url, headers: {}, payloadHash: EMPTY_SHA256 },
          { accessKeyId: ACCESS, secretAccessKey: SECRET, region: 'us-east-1' },
          new Date(),
        );
        delete headers.host;
        const res = await request(url, { method: 'PUT', headers });
        await res.body.dump();
        if (res.statusCode === 200) break;
        throw new Error(`CreateBucket: ${res.statusCode}`);
      } catch (err) {
        if (Date.now() > deadline) throw err;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  });
  after(() => {
    gateway?.kill('SIGTERM');
  });

  it("signs as AWS's published SigV4 example says", () => {
    const h = signV4(
      {
        method: 'GET',
        url: new URL('https://examplebucket.s3.amazonaws.com/test.txt'),
        headers: { Range: 'bytes=0-9' },
        payloadHash: EMPTY_SHA256,
      },
      {
        accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
        secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
        region: 'us-east-1',
      },
      new Date('2013-05-24T00:00:00Z'),
    );
    assert.equal(
      h.authorization,
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    );
  });

  it('puts, reads, deletes, erases per subject and sweeps, with nothing in plain text on the server', async () => {
    const env = {
      AWS_ACCESS_KEY_ID: ACCESS,
      AWS_SECRET_ACCESS_KEY: SECRET,
      AWS_ENDPOINT_URL_S3: endpoint,
      AWS_REGION: 'us-east-1',
    };
    const key = randomBytes(32);
    const config = loadConfig({
      CLAIM_STORE_URL: 's3://claims-test/payflows',
      CLAIM_ENCRYPTION_KEY: key.toString('base64'),
      TEMPORAL_ADDRESS: 'temporal.example:7233',
      TEMPORAL_TLS: 'true',
    });
    const store = claimStoreFromConfig(config, env) as S3ClaimStore;
    assert.ok(store instanceof S3ClaimStore);
    const ssn = await putValue(store, '078-05-1120', 'AC_S3PERSON');
    const doc = await store.put(Buffer.from('%PDF passport of Jane Roe'), 'application/pdf', {
      subject: 'AC_S3PERSON',
    });
    const other = await putValue(store, '987-65-4321', 'AC_S3OTHER');
    assert.match(ssn.ref, /^s3:[0-9a-f]{64}$/);
    assert.equal((await store.get(ssn)).toString(), '078-05-1120');
    assert.equal((await store.get(doc)).toString(), '%PDF passport of Jane Roe');
    // What the server holds: sealed bytes only.
    const files = (readdirSync(root, { recursive: true }) as string[])
      .map((f) => join(root, f))
      .filter((f) => statSync(f).isFile());
    assert.ok(files.length >= 3);
    const onServer = files.map((f) => readFileSync(f).toString('latin1')).join('\n');
    for (const plain of ['078-05-1120', 'Jane Roe', '987-65-4321'])
      assert.ok(!onServer.includes(plain), `${plain} is not on the server`);
    // After a rotation, the previous key reads what it sealed.
    const rotated = new S3ClaimStore(s3Location('s3://claims-test/payflows', env), {
      key: randomBytes(32),
      previousKeys: [key],
    });
    assert.equal((await rotated.get(ssn)).toString(), '078-05-1120');
    await rotated.close();

    await store.delete([doc]);
    await store.delete([doc]);
    await assert.rejects(store.get(doc), /not in the claim store at s3:\/\/claims-test\/payflows/);
    assert.equal(await store.eraseSubject('AC_S3PERSON'), 1);
    await assert.rejects(store.get(ssn), /not in the claim store/);
    assert.equal((await store.get(other)).toString(), '987-65-4321');
    assert.equal(await store.sweep(Date.now() - 3_600_000), 0);
    assert.equal(await store.sweep(Date.now() + 60_000), 1);
    await assert.rejects(store.get(other), /not in the claim store/);
    await store.close();
  });

  it('a store that fails for now (no answer, a wrong bucket) is retried by the activity; a claim that is gone is not', async () => {
    const env = {
      AWS_ACCESS_KEY_ID: ACCESS,
      AWS_SECRET_ACCESS_KEY: SECRET,
      AWS_ENDPOINT_URL_S3: endpoint,
      AWS_REGION: 'us-east-1',
    };
    const key = randomBytes(32);
    const store = new S3ClaimStore(s3Location('s3://claims-test/retried', env), { key });
    const ssn = await putValue(store, '078-05-1120', 'AC_S3RETRY');
    const endsAtOnce = (err: unknown) => {
      const failure = toActivityFailure(err);
      return failure instanceof ApplicationFailure && failure.nonRetryable;
    };
    const down = new S3ClaimStore(
      s3Location('s3://claims-test/retried', { ...env, AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${await freePort()}` }),
      { key },
    );
    const noBucket = new S3ClaimStore(s3Location('s3://claims-missing/retried', env), { key });
    for (const [name, s] of [
      ['no answer', down],
      ['a wrong bucket', noBucket],
    ] as const) {
      const err = await s.get(ssn).catch((e: unknown) => e);
      assert.ok(err instanceof Error, name);
      assert.equal(endsAtOnce(err), false, `${name}: ${err.message}`);
      await s.close();
    }
    // The claim outlived the failures.
    assert.equal((await store.get(ssn)).toString(), '078-05-1120');
    await store.delete([ssn]);
    const gone = await store.get(ssn).catch((e: unknown) => e);
    assert.equal(endsAtOnce(gone), true, 'a claim that is gone ends the activity at once');
    await store.close();
  });

  it('refuses a bad address, missing credentials or a missing claim key, naming each; wrong credentials fail the call', async () => {
    assert.throws(() => loadConfig({ CLAIM_STORE_URL: 'https://bucket' }), /CLAIM_STORE_URL: /);
    const base = {
      CLAIM_STORE_URL: 's3://claims-test/payflows',
      TEMPORAL_ADDRESS: 'temporal.example:7233',
      TEMPORAL_TLS: 'true',
    };
    assert.throws(
      () => claimStoreFromConfig(loadConfig(base), { AWS_ACCESS_KEY_ID: ACCESS, AWS_SECRET_ACCESS_KEY: SECRET }),
      /set CLAIM_ENCRYPTION_KEY too/,
    );
    assert.throws(
      () => claimStoreFromConfig(loadConfig({ ...base, CLAIM_ENCRYPTION_KEY: randomBytes(32).toString('base64') }), {}),
      /AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY/,
    );
    const wrong = new S3ClaimStore(
      s3Location('s3://claims-test/payflows', {
        AWS_ACCESS_KEY_ID: ACCESS,
        AWS_SECRET_ACCESS_KEY: 'not-the-secret',
        AWS_ENDPOINT_URL_S3: endpoint,
      }),
      { key: randomBytes(32) },
    );
    await assert.rejects(
      wrong.put(Buffer.from('x'), 'text/plain'),
      /claim store PUT s3:\/\/claims-test\/payflows: 403/,
    );
    await wrong.close();
  });
});
