import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { healthcheckUrl } from '../../src/healthcheck.js';

// The image's health check asks where the process listens: a specific address it is bound to
// (INGRESS_OPS_HOST, WORKER_HEALTH_HOST), or loopback when it listens on all of them.

const ingress = ['node', 'dist/src/ingress/main.js'];
const worker = ['node', 'dist/worker/main.js'];

describe('the health check asks the configured host', () => {
  it('a specific ingress operations address is asked there', () => {
    assert.equal(
      healthcheckUrl(ingress, { INGRESS_OPS_PORT: '8081', INGRESS_OPS_HOST: '10.0.0.7' }),
      'http://10.0.0.7:8081/health',
    );
    assert.equal(healthcheckUrl(ingress, { INGRESS_OPS_HOST: 'fd00::7' }), 'http://[fd00::7]:4021/health');
  });

  it('a specific worker health address is asked there', () => {
    assert.equal(
      healthcheckUrl(worker, { WORKER_HEALTH_PORT: '9470', WORKER_HEALTH_HOST: '10.0.0.8' }),
      'http://10.0.0.8:9470/health',
    );
  });

  it('all addresses (0.0.0.0, ::) or none set: loopback', () => {
    for (const host of [undefined, '0.0.0.0', '::', '[::]'])
      assert.equal(
        healthcheckUrl(ingress, { INGRESS_OPS_PORT: '8081', INGRESS_OPS_HOST: host }),
        'http://127.0.0.1:8081/health',
        String(host),
      );
  });
});
