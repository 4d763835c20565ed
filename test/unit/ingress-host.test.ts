import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig, SANDBOX_CREDENTIALS } from '../../src/config.js';

// Where every ingress listens (`npm run ingress`, `npm run dev`'s, `npm run cluster`'s replicas),
// decided once in src/config.ts. With the sandbox's published secret anyone who reaches the
// ingress can sign a deposit, so it listens on loopback unless
// an address is set by name (docker-compose.yml: the container's interfaces, published on loopback).

const SANDBOX = SANDBOX_CREDENTIALS.secretKey;
const OWN = 'SK-LIVE-0123456789abcdef';
const host = (env: Record<string, string>) => loadConfig(env).ingress.host;

describe('INGRESS_HOST', () => {
  it("unset, loopback while any callback secret is the sandbox's published one", () => {
    assert.equal(host({}), '127.0.0.1', "the embedded stack's defaults");
    assert.equal(host({ TEMPORAL_ADDRESS: '127.0.0.1:7233', PROVIDER_SECRET_KEY: SANDBOX }), '127.0.0.1');
    assert.equal(host({ PROVIDER_CALLBACK_SECRETS: `${OWN},${SANDBOX}` }), '127.0.0.1', 'during a rotation');
  });

  it('unset, every interface with secrets of the deployment’s own, so that the provider reaches it', () => {
    assert.equal(host({ PROVIDER_BASE_URL: 'https://api.provider.example', PROVIDER_SECRET_KEY: OWN }), '0.0.0.0');
    assert.equal(host({ PROVIDER_CALLBACK_SECRETS: `${OWN},SK-OLD-0123456789abcdef` }), '0.0.0.0');
  });

  it('set, it is taken as it is, with the sandbox secret too: in a container, what is published decides who reaches it', () => {
    assert.equal(host({ PROVIDER_SECRET_KEY: OWN, INGRESS_HOST: '10.0.0.5' }), '10.0.0.5');
    assert.equal(host({ PROVIDER_SECRET_KEY: OWN, INGRESS_HOST: '127.0.0.1' }), '127.0.0.1');
    assert.equal(host({ PROVIDER_SECRET_KEY: SANDBOX, INGRESS_HOST: '0.0.0.0' }), '0.0.0.0');
    for (const loopback of ['127.0.0.1', '127.0.0.2', '::1', 'localhost'])
      assert.equal(host({ INGRESS_HOST: loopback }), loopback, loopback);
  });

  it('refuses an empty INGRESS_HOST, naming it', () => {
    assert.throws(
      () => loadConfig({ INGRESS_HOST: ' ' }),
      (err: unknown) => err instanceof ConfigError && /INGRESS_HOST/.test(err.message),
    );
  });
});
