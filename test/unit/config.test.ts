import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { connectClients } from '../../src/client/connect.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { parseDuration } from '../../src/duration.js';

describe('configuration', () => {
  it('has working defaults for the embedded stack', () => {
    const c = loadConfig({});
    assert.equal(c.temporal.embedded, true);
    assert.equal(c.temporal.namespace, 'default');
    assert.equal(c.provider.baseUrl, 'http://127.0.0.1:4010');
    assert.equal(c.provider.usesSandbox, true);
    assert.equal(c.ingress.publicUrl, 'http://127.0.0.1:4020');
    assert.equal(c.wallet.pollIntervalMs, 60_000);
  });

  it('follows what is set', () => {
    const c = loadConfig({
      TEMPORAL_ADDRESS: 'temporal:7233',
      TEMPORAL_TLS: 'false',
      PROVIDER_BASE_URL: 'https://api.example.test/',
      SANDBOX_PORT: '5000',
      WALLET_POLL_INTERVAL: '30s',
      INGRESS_PUBLIC_URL: 'https://hooks.example.test',
    });
    assert.equal(c.temporal.embedded, false);
    assert.equal(c.provider.baseUrl, 'https://api.example.test');
    assert.equal(c.provider.usesSandbox, false);
    assert.equal(c.sandbox.port, 5000);
    assert.equal(c.wallet.pollIntervalMs, 30_000);
  });

  it('a bad value stops start-up with a message that names the variable', () => {
    for (const [name, value] of [
      ['SANDBOX_PORT', 'eighty'],
      ['PROVIDER_BASE_URL', 'ftp://x'],
      ['WALLET_POLL_INTERVAL', 'soon'],
      // Below the wallet input's minimums: followers the ingress starts with them would be refused.
      ['WALLET_POLL_INTERVAL', '50ms'],
      ['WALLET_POLL_MAX', '99ms'],
      ['WALLET_RECONCILE_INTERVAL', '999ms'],
      ['INGRESS_PORT', '70000'],
      ['PROVIDER_BASE_URL', 'https://user:pw@api.example.test'],
      ['PROVIDER_BASE_URL', 'https://api.example.test/?format=json'],
      // Not a unit of its own, though every object has it: read as NaN, it would size the cache.
      ['WORKER_MEMORY', '1toString'],
      ['WORKER_MEMORY', '512Mb'],
    ] as const) {
      assert.throws(
        () => loadConfig({ [name]: value }),
        (err: unknown) => {
          assert.ok(err instanceof ConfigError);
          assert.match(err.message, new RegExp(`\\n  ${name}: \\S`));
          return true;
        },
        name,
      );
    }
  });

  it('an invalid setting is named with what is wrong, never echoed: secrets in a bad value stay out of the message (and so out of container logs)', () => {
    for (const [name, value, wrong] of [
      ['PROVIDER_BASE_URL', 'https://merchant:S3cretPassw0rd@api.example.test', /user:password@/],
      ['CODEC_SERVER_TOKEN', 'S3cretPassw0rd', /at least 16 characters/],
      ['PAYLOAD_ENCRYPTION_KEY', 'S3cretPassw0rd', /base64 of 32 bytes/],
      ['CLAIM_ENCRYPTION_KEY', 'S3cretPassw0rd', /base64 of 32 bytes/],
      ['WALLET_POLL_INTERVAL', 'S3cretPassw0rd', /not a duration/],
      ['LOG_LEVEL', 'S3cretPassw0rd', /\S/],
    ] as const) {
      assert.throws(
        () => loadConfig({ [name]: value }),
        (err: unknown) => {
          assert.ok(err instanceof ConfigError);
          assert.match(err.message, new RegExp(`\\n  ${name}: `), name);
          assert.match(err.message, wrong, name);
          assert.doesNotMatch(err.message, /S3cretPassw0rd/, `${name}'s value is not echoed`);
          return true;
        },
      );
    }
  });

  it('refuses plaintext to a remote Temporal unless TEMPORAL_TLS=false says so, and never sends an API key in clear', () => {
    const refused = (env: Record<string, string>, why: RegExp) =>
      assert.throws(
        () => loadConfig(env),
        (err: unknown) => {
          assert.ok(err instanceof ConfigError, String(err));
          assert.match(err.message, why);
          assert.doesNotMatch(err.message, /k-S3cret/, 'the API key is not echoed');
          return true;
        },
        JSON.stringify(env),
      );
    // A remote server, nothing said about TLS: encrypted or explicitly not, never silently plaintext.
    refused(
      { TEMPORAL_ADDRESS: 'temporal.example:7233' },
      /TEMPORAL_ADDRESS.*not on this machine.*TEMPORAL_TLS=true.*TEMPORAL_TLS=false/s,
    );
    // The variable is named, its value never shown (docs/configuration.md).
    assert.throws(
      () => loadConfig({ TEMPORAL_ADDRESS: 'temporal.example:7233' }),
      (err: unknown) => err instanceof ConfigError && !/temporal\.example|7233/.test(err.message),
      'the address is not echoed',
    );
    // An API key over a connection without TLS, remote or not.
    for (const address of ['temporal.example:7233', '127.0.0.1:7233'])
      refused(
        { TEMPORAL_ADDRESS: address, TEMPORAL_API_KEY: 'k-S3cret', TEMPORAL_TLS: 'false' },
        /TEMPORAL_API_KEY.*TEMPORAL_TLS=false/s,
      );
    // What stays allowed: TLS (said, implied by an API key or client certificates), plaintext said
    // explicitly, and loopback.
    assert.ok(loadConfig({ TEMPORAL_ADDRESS: 'temporal.example:7233', TEMPORAL_TLS: 'true' }).temporal.connection.tls);
    assert.ok(
      loadConfig({ TEMPORAL_ADDRESS: 'temporal.example:7233', TEMPORAL_API_KEY: 'k-S3cret' }).temporal.connection.tls,
    );
    assert.equal(
      loadConfig({ TEMPORAL_ADDRESS: 'temporal:7233', TEMPORAL_TLS: 'false' }).temporal.connection.tls,
      false,
    );
    for (const address of ['127.0.0.1:7233', 'localhost:7233', '[::1]:7233', '127.0.0.2:7233'])
      assert.equal(loadConfig({ TEMPORAL_ADDRESS: address }).temporal.address, address);
    // Loopback read as the worker dials: here it would dial evil.example.
    refused({ TEMPORAL_ADDRESS: 'localhost:7233@evil.example' }, /TEMPORAL_ADDRESS.*not on this machine/s);
    assert.equal(loadConfig({}).temporal.embedded, true);
  });

  it('reads TEMPORAL_TLS strictly: true/false/1/0 in any case, trimmed, mean what they say; any other spelling is refused, never taken as plaintext', () => {
    const remote = 'temporal.example:7233';
    for (const on of ['true', 'TRUE', 'True', ' true ', '1', ' 1'])
      assert.ok(loadConfig({ TEMPORAL_ADDRESS: remote, TEMPORAL_TLS: on }).temporal.connection.tls, `${on}: TLS on`);
    for (const off of ['false', 'FALSE', 'False ', '0'])
      assert.equal(loadConfig({ TEMPORAL_ADDRESS: remote, TEMPORAL_TLS: off }).temporal.connection.tls, false, off);
    for (const bad of ['yes', 'on', 'off', 'no', 'enabled', '2', 'tru', 'k-S3cret'])
      for (const address of [remote, '127.0.0.1:7233'])
        assert.throws(
          () => loadConfig({ TEMPORAL_ADDRESS: address, TEMPORAL_TLS: bad }),
          (err: unknown) => {
            assert.ok(err instanceof ConfigError, String(err));
            assert.match(err.message, /\n  TEMPORAL_TLS: must be `true` or `false`/);
            assert.doesNotMatch(err.message, /k-S3cret/, 'the value is not echoed');
            return true;
          },
          bad,
        );
  });

  it('never sends a credential in gRPC metadata in clear: an authorization (or other credential-like) header needs TLS, as an API key does', () => {
    const refused = (env: Record<string, string>, names: RegExp) =>
      assert.throws(
        () => loadConfig(env),
        (err: unknown) => {
          assert.ok(err instanceof ConfigError, String(err));
          assert.match(err.message, names);
          assert.match(err.message, /TLS/);
          assert.doesNotMatch(err.message, /k-S3cret/, 'the credential is not echoed');
          return true;
        },
        JSON.stringify(env),
      );
    for (const address of ['temporal.example:7233', '127.0.0.1:7233']) {
      refused(
        { TEMPORAL_ADDRESS: address, TEMPORAL_TLS: 'false', TEMPORAL_GRPC_META_AUTHORIZATION: 'Bearer k-S3cret' },
        /TEMPORAL_GRPC_META_AUTHORIZATION/,
      );
      refused({ TEMPORAL_ADDRESS: address, TEMPORAL_GRPC_META_X_API_KEY: 'k-S3cret' }, /TEMPORAL_GRPC_META_X_API_KEY/);
      // A bearer under a name that does not say so is still a bearer.
      refused(
        { TEMPORAL_ADDRESS: address, TEMPORAL_TLS: '0', TEMPORAL_GRPC_META_X_TENANT: 'Bearer k-S3cret' },
        /TEMPORAL_GRPC_META_X_TENANT/,
      );
    }
    // From a profile file, plaintext said there too.
    const dir = mkdtempSync(join(tmpdir(), 'payflows-meta-'));
    const file = join(dir, 'temporal.toml');
    writeFileSync(
      file,
      '[profile.default]\naddress = "temporal.example:7233"\n[profile.default.tls]\ndisabled = true\n[profile.default.grpc_meta]\nauthorization = "Bearer k-S3cret"\n',
    );
    refused({ TEMPORAL_CONFIG_FILE: file }, /grpc_meta.*authorization/);
    // What stays allowed: the same header over TLS, and metadata that holds no credential in plaintext.
    const tls = loadConfig({
      TEMPORAL_ADDRESS: 'temporal.example:7233',
      TEMPORAL_TLS: 'true',
      TEMPORAL_GRPC_META_AUTHORIZATION: 'Bearer k-S3cret',
    });
    assert.equal(tls.temporal.connection.metadata?.authorization, 'Bearer k-S3cret');
    assert.ok(loadConfig({ TEMPORAL_CONFIG_FILE: file, TEMPORAL_TLS: 'true' }).temporal.connection.tls);
    assert.equal(
      loadConfig({ TEMPORAL_ADDRESS: 'temporal:7233', TEMPORAL_TLS: 'false', TEMPORAL_GRPC_META_X_TENANT: 'acme' })
        .temporal.connection.metadata?.['x-tenant'],
      'acme',
    );
  });

  it('a broken Temporal profile file is named with the kind of error and its line, never the lines themselves: a key in it stays out of the logs', () => {
    const dir = mkdtempSync(join(tmpdir(), 'payflows-profile-'));
    for (const [text, line] of [
      // An unterminated string on line 3: the parser would quote it.
      ['[profile.default]\naddress = "cloud.example:7233"\napi_key = "k-S3cret-api-key\nnamespace = "ns"\n', 3],
      // A private key pasted without the closing quotes: the excerpt would be the key.
      [
        '[profile.default]\naddress = "cloud.example:7233"\n\n[profile.default.tls]\nclient_key_data = """-----BEGIN PRIVATE KEY-----\nMIIk-S3cret-private-key\n-----END PRIVATE KEY-----\n',
        5,
      ],
      ['[profile.default]\napi_key = k-S3cret-bare\n', 2],
    ] as const) {
      const file = join(dir, `bad-${line}.toml`);
      writeFileSync(file, text);
      assert.throws(
        () => loadConfig({ TEMPORAL_CONFIG_FILE: file }),
        (err: unknown) => {
          assert.ok(err instanceof ConfigError, String(err));
          assert.match(err.message, /TEMPORAL_CONFIG_FILE/);
          assert.match(err.message, new RegExp(`not valid TOML.*line ${line}\\b`));
          assert.doesNotMatch(err.message, /S3cret/, 'no line of the file is quoted');
          assert.doesNotMatch(err.message, /\n/, 'one paragraph');
          return true;
        },
        text,
      );
    }
  });

  it('connectClients() pointed at a Temporal server it did not start refuses, before connecting, without PAYLOAD_ENCRYPTION_KEY, naming it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payflows-connect-'));
    const keyFile = join(dir, 'payload.key');
    // Nothing listens on port 1: had it tried to connect, the error would be a connection failure.
    const env = {
      TEMPORAL_ADDRESS: '127.0.0.1:1',
      PAYLOAD_KEY_FILE: keyFile,
      CLAIM_STORE_DIR: join(dir, 'claims'),
      CLAIM_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
    };
    await assert.rejects(connectClients({ env }), (err: unknown) => {
      assert.ok(err instanceof ConfigError, String(err));
      assert.match(
        err.message,
        /^The client refuses to start: Temporal is at 127\.0\.0\.1:1, a server this process did not start/,
      );
      assert.match(err.message, /\n  PAYLOAD_ENCRYPTION_KEY: \S/);
      assert.doesNotMatch(err.message, /CLAIM_ENCRYPTION_KEY/, 'only what is missing is named');
      return true;
    });
    assert.ok(!existsSync(keyFile), 'no payload key of its own was made');
  });

  it('parses durations and refuses nonsense', () => {
    assert.equal(parseDuration('500ms'), 500);
    assert.equal(parseDuration('1.5s'), 1500);
    assert.equal(parseDuration('2h'), 7_200_000);
    assert.equal(parseDuration('250'), 250);
    assert.throws(() => parseDuration('0s'), /positive/);
    assert.throws(() => parseDuration('5 minutes'), /not a duration/);
  });

  it('refuses a claim retention no longer than the process deadline, naming both: the sweep would take claims a process may still send', () => {
    assert.throws(() => loadConfig({ CLAIM_RETENTION: '7d' }), /CLAIM_RETENTION: must be longer than PROCESS_DEADLINE/);
    assert.throws(() => loadConfig({ CLAIM_RETENTION: '20d', PROCESS_DEADLINE: '20d' }), /CLAIM_RETENTION: /);
    assert.equal(loadConfig({ CLAIM_RETENTION: '15d' }).claims.retentionMs, 15 * 86_400_000);
  });
});
