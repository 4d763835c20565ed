import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig, SANDBOX_CREDENTIALS } from '../../src/config.js';
import { providerFromConfig } from '../../src/provider/from-config.js';
import { missingSettings, requireSettings } from '../../src/required-settings.js';
import { codecFromConfig } from '../../src/temporal/codec.js';
import { claimStoreFromConfig } from '../../src/claims/from-config.js';
import { scratchDirs } from '../helpers/scratch.js';

// Defaults that are safe for the embedded stack never apply silently elsewhere: a process pointed
// at the real provider or at a Temporal server it did not start refuses to start without its
// secrets, naming each, and makes nothing on the way (no key file).

const dir = scratchDirs('settings');
const KEY = Buffer.alloc(32, 7).toString('base64');

describe('safe configuration', () => {
  it('the embedded stack needs nothing: sandbox keys, a loopback callback URL, a key file it makes', () => {
    const keyFile = join(dir(), 'payload.key');
    const c = loadConfig({ PAYLOAD_KEY_FILE: keyFile });
    for (const role of ['worker', 'ingress', 'client', 'codec-server'] as const)
      assert.deepEqual(missingSettings(c, role), [], role);
    assert.equal(c.provider.apiKey, SANDBOX_CREDENTIALS.apiKey);
    assert.equal(c.ingress.publicUrl, 'http://127.0.0.1:4020');
    codecFromConfig(c.payloads);
    assert.ok(existsSync(keyFile), 'the embedded stack made its key file');
  });

  it('pointed at the real provider, the sandbox credentials and a loopback callback URL never apply', () => {
    const c = loadConfig({ PROVIDER_BASE_URL: 'https://api.provider.example', PAYLOAD_ENCRYPTION_KEY: KEY });
    assert.equal(c.provider.apiKey, undefined);
    assert.equal(c.provider.secretKey, undefined);
    assert.equal(c.provider.accountId, undefined);
    assert.equal(c.ingress.publicUrl, undefined);
    assert.deepEqual(c.ingress.callbackSecrets, []);
    assert.deepEqual(missingSettings(c, 'worker'), [
      'PROVIDER_API_KEY',
      'PROVIDER_SECRET_KEY',
      'PROVIDER_ACCOUNT_ID',
      'INGRESS_PUBLIC_URL',
    ]);
    assert.deepEqual(missingSettings(c, 'ingress'), ['PROVIDER_CALLBACK_SECRETS']);
    assert.deepEqual(missingSettings(c, 'client'), [], 'a backend client needs no provider keys');
    assert.throws(
      () => requireSettings(c, 'worker'),
      (err: unknown) => {
        assert.ok(err instanceof ConfigError);
        assert.match(err.message, /PROVIDER_BASE_URL is set \(https:\/\/api\.provider\.example\)/);
        for (const name of ['PROVIDER_API_KEY', 'PROVIDER_SECRET_KEY', 'PROVIDER_ACCOUNT_ID', 'INGRESS_PUBLIC_URL'])
          assert.match(err.message, new RegExp(`\\n  ${name}: \\S`), name);
        return true;
      },
    );
    // Whatever path builds a provider client, it cannot build one with the sandbox's keys.
    assert.throws(() => providerFromConfig(c), /PROVIDER_API_KEY/);
    const ok = loadConfig({
      PROVIDER_BASE_URL: 'https://api.provider.example',
      PROVIDER_API_KEY: 'AK-REAL',
      PROVIDER_SECRET_KEY: 'SK-REAL',
      PROVIDER_ACCOUNT_ID: 'AC_REAL1',
      INGRESS_PUBLIC_URL: 'https://hooks.example',
      PAYLOAD_ENCRYPTION_KEY: KEY,
    });
    assert.deepEqual(missingSettings(ok, 'worker'), []);
    assert.deepEqual(ok.ingress.callbackSecrets, ['SK-REAL'], 'the secret key verifies callbacks');
  });

  it('pointed at a Temporal server it did not start, a process never makes a payload key of its own', () => {
    const keyFile = join(dir(), 'payload.key');
    const c = loadConfig({
      TEMPORAL_ADDRESS: 'temporal.example:7233',
      TEMPORAL_TLS: 'true',
      PAYLOAD_KEY_FILE: keyFile,
      CLAIM_ENCRYPTION_KEY: KEY,
      CLAIM_STORE_DIR: dir(),
    });
    assert.equal(c.temporal.embedded, false);
    for (const role of ['worker', 'client', 'codec-server'] as const)
      assert.deepEqual(missingSettings(c, role), ['PAYLOAD_ENCRYPTION_KEY'], role);
    assert.deepEqual(
      missingSettings(c, 'ingress'),
      ['PROVIDER_CALLBACK_SECRETS', 'PAYLOAD_ENCRYPTION_KEY'],
      'and the callback secret (see below)',
    );
    assert.throws(
      () => requireSettings(c, 'client'),
      /Temporal is at temporal\.example:7233[\s\S]*PAYLOAD_ENCRYPTION_KEY: make it once with `openssl rand -base64 32`/,
    );
    assert.throws(() => codecFromConfig(c.payloads), /PAYLOAD_ENCRYPTION_KEY is not set/);
    assert.ok(!existsSync(keyFile), 'no key file was made');
    // Beside `npm run dev`, the key file that the embedded stack made is read.
    writeFileSync(keyFile, KEY);
    assert.deepEqual(missingSettings(c, 'worker'), []);
    assert.equal(
      codecFromConfig(c.payloads).keyId,
      codecFromConfig({ key: KEY, previousKeys: [], keyFile: '/nonexistent', mayCreateKeyFile: false }).keyId,
    );
  });

  it("pointed at a Temporal server it did not start, the ingress never verifies callbacks with the sandbox's published secret", () => {
    // No PROVIDER_BASE_URL: the sandbox's secret would be the only thing between anyone and the
    // workflows of a real cluster, since that secret is published.
    const c = loadConfig({
      TEMPORAL_ADDRESS: 'temporal.example:7233',
      TEMPORAL_TLS: 'true',
      PAYLOAD_ENCRYPTION_KEY: KEY,
    });
    assert.deepEqual(c.ingress.callbackSecrets, []);
    assert.deepEqual(missingSettings(c, 'ingress'), ['PROVIDER_CALLBACK_SECRETS']);
    assert.throws(
      () => requireSettings(c, 'ingress'),
      (err: unknown) => {
        assert.ok(err instanceof ConfigError);
        assert.match(
          err.message,
          /The ingress refuses to start: Temporal is at temporal\.example:7233, a server this process did not start/,
        );
        assert.match(err.message, /\n  PROVIDER_CALLBACK_SECRETS: or PROVIDER_SECRET_KEY: .*dashboard/);
        return true;
      },
    );
    // The same from a profile file.
    const file = join(dir(), 'temporal.toml');
    writeFileSync(file, '[profile.default]\naddress = "cloud.example:7233"\n[profile.default.tls]\n');
    const fromFile = loadConfig({ TEMPORAL_CONFIG_FILE: file, PAYLOAD_ENCRYPTION_KEY: KEY });
    assert.deepEqual(fromFile.ingress.callbackSecrets, []);
    assert.deepEqual(missingSettings(fromFile, 'ingress'), ['PROVIDER_CALLBACK_SECRETS']);
    // Given, the secret verifies callbacks; the embedded stack keeps the sandbox's own.
    assert.deepEqual(
      loadConfig({
        TEMPORAL_ADDRESS: 'temporal.example:7233',
        TEMPORAL_TLS: 'true',
        PAYLOAD_ENCRYPTION_KEY: KEY,
        PROVIDER_SECRET_KEY: 'SK-SANDBOX-OWN',
      }).ingress.callbackSecrets,
      ['SK-SANDBOX-OWN'],
    );
    assert.deepEqual(
      missingSettings(
        loadConfig({
          TEMPORAL_ADDRESS: 'temporal.example:7233',
          TEMPORAL_TLS: 'true',
          PAYLOAD_ENCRYPTION_KEY: KEY,
          PROVIDER_CALLBACK_SECRETS: 'SK-B,SK-A',
        }),
        'ingress',
      ),
      [],
    );
    assert.deepEqual(loadConfig({}).ingress.callbackSecrets, [SANDBOX_CREDENTIALS.secretKey]);
  });

  it('pointed at a Temporal server it did not start, the claim store keeps no key of its own: CLAIM_ENCRYPTION_KEY for workers and clients', () => {
    const claims = dir();
    const c = loadConfig({
      TEMPORAL_ADDRESS: 'temporal.example:7233',
      TEMPORAL_TLS: 'true',
      PAYLOAD_ENCRYPTION_KEY: KEY,
      CLAIM_STORE_DIR: claims,
    });
    assert.deepEqual(missingSettings(c, 'worker'), ['CLAIM_ENCRYPTION_KEY']);
    assert.deepEqual(missingSettings(c, 'client'), ['CLAIM_ENCRYPTION_KEY']);
    assert.deepEqual(
      missingSettings(
        loadConfig({
          TEMPORAL_ADDRESS: 'temporal.example:7233',
          TEMPORAL_TLS: 'true',
          PAYLOAD_ENCRYPTION_KEY: KEY,
          CLAIM_STORE_DIR: claims,
          PROVIDER_SECRET_KEY: 'SK-A',
        }),
        'ingress',
      ),
      [],
      'the ingress holds no claim',
    );
    assert.throws(
      () => requireSettings(c, 'worker'),
      /CLAIM_ENCRYPTION_KEY: make it once with `openssl rand -base64 32`/,
    );
    assert.throws(() => claimStoreFromConfig(c), /CLAIM_ENCRYPTION_KEY is not set/);
    assert.ok(!existsSync(join(claims, '.claim-key')), 'no key was made');
    assert.deepEqual(
      missingSettings(
        loadConfig({
          TEMPORAL_ADDRESS: 'temporal.example:7233',
          TEMPORAL_TLS: 'true',
          PAYLOAD_ENCRYPTION_KEY: KEY,
          CLAIM_STORE_DIR: claims,
          CLAIM_ENCRYPTION_KEY: KEY,
        }),
        'worker',
      ),
      [],
    );
    assert.throws(() => loadConfig({ CLAIM_ENCRYPTION_KEY: 'short' }), /CLAIM_ENCRYPTION_KEY: /);
    // The embedded stack's store keeps its own, so `npm run dev` needs nothing.
    assert.deepEqual(
      missingSettings(loadConfig({ CLAIM_STORE_DIR: claims, PAYLOAD_KEY_FILE: join(claims, 'p.key') }), 'worker'),
      [],
    );
  });

  it("a Temporal profile file counts the same as the environment, and TEMPORAL_* variables configure the connection as Temporal's SDKs read them", () => {
    const file = join(dir(), 'temporal.toml');
    writeFileSync(
      file,
      '[profile.default]\naddress = "cloud.example:7233"\nnamespace = "payments.abc12"\napi_key = "from-profile"\n\n[profile.staging]\naddress = "staging.example:7233"\n[profile.staging.tls]\n',
    );
    const fromFile = loadConfig({
      TEMPORAL_CONFIG_FILE: file,
      PAYLOAD_KEY_FILE: join(dir(), 'none.key'),
      CLAIM_STORE_DIR: dir(),
    });
    assert.equal(fromFile.temporal.embedded, false);
    assert.equal(fromFile.temporal.address, 'cloud.example:7233');
    assert.equal(fromFile.temporal.namespace, 'payments.abc12');
    assert.equal(fromFile.temporal.connection.apiKey, 'from-profile');
    assert.ok(fromFile.temporal.connection.tls, 'an API key implies TLS');
    assert.deepEqual(missingSettings(fromFile, 'worker'), ['PAYLOAD_ENCRYPTION_KEY', 'CLAIM_ENCRYPTION_KEY']);
    assert.equal(
      loadConfig({ TEMPORAL_CONFIG_FILE: file, TEMPORAL_PROFILE: 'staging' }).temporal.address,
      'staging.example:7233',
    );
    const env = loadConfig({
      TEMPORAL_CONFIG_FILE: file,
      TEMPORAL_ADDRESS: 'other.example:7233',
      TEMPORAL_NAMESPACE: 'ns',
      TEMPORAL_TLS_SERVER_NAME: 'frontend.example',
    });
    assert.equal(env.temporal.address, 'other.example:7233', 'the environment wins over the file');
    assert.equal(env.temporal.namespace, 'ns');
    assert.equal(
      (env.temporal.connection.tls as { serverNameOverride?: string }).serverNameOverride,
      'frontend.example',
    );
    assert.throws(
      () => loadConfig({ TEMPORAL_CONFIG_FILE: file, TEMPORAL_PROFILE: 'missing' }),
      (err: unknown) => err instanceof ConfigError && /TEMPORAL_CONFIG_FILE=.*profile missing/.test(err.message),
    );
    const bad = join(dir(), 'bad.toml');
    writeFileSync(bad, 'not toml [');
    assert.throws(() => loadConfig({ TEMPORAL_CONFIG_FILE: bad }), ConfigError);
    assert.equal(
      loadConfig({}).temporal.connection.address,
      '127.0.0.1:7233',
      'no address anywhere: the embedded server',
    );
  });

  it('worker and ingress settings: grace periods, concurrency, cache and health, each checked', () => {
    const c = loadConfig({
      WORKER_SHUTDOWN_GRACE: '45s',
      INGRESS_SHUTDOWN_GRACE: '5s',
      WORKER_MAX_CONCURRENT_ACTIVITIES: '20',
      WORKER_MAX_CONCURRENT_WORKFLOW_TASKS: '8',
      WORKER_MAX_CACHED_WORKFLOWS: '500',
      WORKER_HEALTH_PORT: '9470',
      WORKER_MEMORY: '512Mi',
    });
    assert.deepEqual(c.worker, {
      shutdownGraceMs: 45_000,
      maxConcurrentActivities: 20,
      maxConcurrentWorkflowTasks: 8,
      maxCachedWorkflows: 500,
      memoryBytes: 512 * 1024 * 1024,
      health: { host: '127.0.0.1', port: 9470 },
      // The defaults (test/unit/worker-version.test.ts): no Temporal address, so the embedded
      // stack's, which makes a new deployment's first version current.
      versioning: { enabled: true, deploymentName: 'payflows', buildId: undefined, bootstrap: true },
    });
    assert.equal(c.ingress.shutdownGraceMs, 5_000);
    for (const [name, value] of [
      ['WORKER_SHUTDOWN_GRACE', 'later'],
      ['WORKER_MAX_CONCURRENT_ACTIVITIES', '0'],
      ['WORKER_MAX_CONCURRENT_WORKFLOW_TASKS', '1'],
      ['WORKER_MAX_CACHED_WORKFLOWS', '-1'],
      ['WORKER_HEALTH_PORT', '99999'],
    ] as const) {
      assert.throws(() => loadConfig({ [name]: value }), new RegExp(`${name}: `), name);
    }
  });

  for (const [entry, role] of [
    ['worker/main.ts', 'worker'],
    ['src/ingress/main.ts', 'ingress'],
    ['src/temporal/codec-server-main.ts', 'codec-server'],
  ] as const) {
    it(`\`${entry}\` refuses to start without its secrets, says which, and leaves nothing behind`, () => {
      const keyFile = join(dir(), 'payload.key');
      const env: Record<string, string> = {
        PATH: process.env.PATH ?? '',
        HOME: dir(),
        TEMPORAL_ADDRESS: '127.0.0.1:1',
        PROVIDER_BASE_URL: 'https://api.provider.example',
        PAYLOAD_KEY_FILE: keyFile,
      };
      const run = spawnSync(process.execPath, ['--import', 'tsx', entry], { env, encoding: 'utf8', timeout: 60_000 });
      assert.equal(run.status, 78, run.stderr);
      assert.match(run.stderr, new RegExp(`The ${role} refuses to start`));
      assert.match(run.stderr, /PAYLOAD_ENCRYPTION_KEY: make it once/);
      if (role === 'worker')
        assert.match(
          run.stderr,
          /PROVIDER_API_KEY[\s\S]*PROVIDER_SECRET_KEY[\s\S]*PROVIDER_ACCOUNT_ID[\s\S]*INGRESS_PUBLIC_URL/,
        );
      if (role === 'ingress') assert.match(run.stderr, /PROVIDER_CALLBACK_SECRETS/);
      assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
      assert.ok(!existsSync(keyFile));
    });
  }

  it('`worker/main.ts` off the embedded server without a build id refuses to start in one paragraph naming WORKER_BUILD_ID, as any other bad setting', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'worker/main.ts'], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: dir(),
        TEMPORAL_ADDRESS: '127.0.0.1:1',
        PAYLOAD_ENCRYPTION_KEY: KEY,
        CLAIM_ENCRYPTION_KEY: KEY,
        CLAIM_STORE_DIR: dir(),
        LOG_LEVEL: 'silent',
      },
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(run.status, 78, run.stderr);
    assert.match(run.stderr, /^Invalid configuration: the worker has no build id: WORKER_BUILD_ID is unset/);
    assert.match(run.stderr, /Set WORKER_BUILD_ID/);
    assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
  });

  it('`worker/main.ts` whose Temporal server refuses the connection says so in one paragraph naming TEMPORAL_ADDRESS, without its value, and exits 69', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'worker/main.ts'], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: dir(),
        // Nothing listens on port 1.
        TEMPORAL_ADDRESS: '127.0.0.1:1',
        WORKER_BUILD_ID: 'required-settings-test',
        PAYLOAD_ENCRYPTION_KEY: KEY,
        CLAIM_ENCRYPTION_KEY: KEY,
        CLAIM_STORE_DIR: dir(),
        LOG_LEVEL: 'silent',
      },
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(run.status, 69, run.stderr);
    assert.match(run.stderr, /^The worker cannot reach Temporal: the connection was refused\b.*TEMPORAL_ADDRESS/);
    assert.doesNotMatch(run.stderr, /127\.0\.0\.1:1/, 'the variable is named, not its value');
    assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
    assert.equal(run.stderr.trim().split('\n').length, 1, 'one paragraph');
  });

  it('`src/ingress/main.ts` whose Temporal server refuses the connection says so in one paragraph naming TEMPORAL_ADDRESS, without its value, and exits 69, as the worker', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/ingress/main.ts'], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: dir(),
        // Nothing listens on port 1.
        TEMPORAL_ADDRESS: '127.0.0.1:1',
        PAYLOAD_ENCRYPTION_KEY: KEY,
        PROVIDER_CALLBACK_SECRETS: 'SK-REQUIRED-SETTINGS',
        LOG_LEVEL: 'silent',
      },
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(run.status, 69, run.stderr);
    // The ingress connects with gRPC-js, which retries a refused connection until its deadline and then
    // reports only that: the reason reads "it did not answer in time", not the worker's "refused".
    assert.match(run.stderr, /^The ingress cannot reach Temporal: [^.]+\. Check TEMPORAL_ADDRESS\b.*TEMPORAL_TLS/);
    assert.doesNotMatch(run.stderr, /127\.0\.0\.1:1/, 'the variable is named, not its value');
    assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
    assert.equal(run.stderr.trim().split('\n').length, 1, 'one paragraph');
  });

  it('`src/temporal/codec-server-main.ts` off the embedded server without a token or sign-in refuses to start in one paragraph naming CODEC_SERVER_OIDC_ISSUER and CODEC_SERVER_TOKEN, exit 78, as any other bad setting', () => {
    // The codec server never connects to Temporal; its own refusal is a setting's.
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/temporal/codec-server-main.ts'], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: dir(),
        TEMPORAL_ADDRESS: '127.0.0.1:1',
        PAYLOAD_ENCRYPTION_KEY: KEY,
        LOG_LEVEL: 'silent',
      },
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(run.status, 78, run.stderr);
    assert.match(
      run.stderr,
      /^this codec server decrypts the payloads of a Temporal server it did not start: set CODEC_SERVER_OIDC_ISSUER and CODEC_SERVER_OIDC_AUDIENCE \(users signed in to the Web UI decode by their role, docs\/security\.md\), or CODEC_SERVER_TOKEN/,
    );
    assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
    assert.equal(run.stderr.trim().split('\n').length, 1, 'one paragraph');
  });

  it('`src/sandbox/main.ts` with a bad setting refuses to start in one paragraph naming it, exit 78, as any other process', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/sandbox/main.ts'], {
      env: { PATH: process.env.PATH ?? '', HOME: dir(), SANDBOX_PORT: 'not-a-port', LOG_LEVEL: 'silent' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(run.status, 78, run.stderr);
    assert.match(run.stderr, /^Invalid configuration; fix these environment variables:\n {2}SANDBOX_PORT: /);
    assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
  });

  it('`src/ingress/main.ts` pointed at a Temporal server it did not start refuses to start without the callback secret, even against the sandbox', () => {
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      HOME: dir(),
      TEMPORAL_ADDRESS: '127.0.0.1:1',
      PAYLOAD_ENCRYPTION_KEY: KEY,
    };
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/ingress/main.ts'], {
      env,
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(run.status, 78, run.stderr);
    assert.match(run.stderr, /The ingress refuses to start: Temporal is at 127\.0\.0\.1:1/);
    assert.match(run.stderr, /PROVIDER_CALLBACK_SECRETS: or PROVIDER_SECRET_KEY/);
    assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
  });
});
