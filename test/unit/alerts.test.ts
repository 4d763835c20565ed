import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import {
  ensurePrometheus,
  prometheusConfig,
  PROMTOOL,
  TEMPORAL_SCRAPE_FLOOR_SECONDS,
} from '../../scripts/lib/prometheus.js';

// The shipped alert rules are valid and each fires on the failure it names (promtool's own rule
// unit tests, deploy/prometheus/alerts.test.yml), and the compose scrape config is valid.

describe('alert rules', () => {
  before(() => ensurePrometheus((line) => console.log(`[alerts] ${line}`)));

  it('pass promtool check and promtool rule tests', () => {
    const check = execFileSync(PROMTOOL, ['check', 'rules', 'deploy/prometheus/alerts.yml'], { encoding: 'utf8' });
    assert.match(check, /SUCCESS: 9 rules found/);
    const tests = execFileSync(PROMTOOL, ['test', 'rules', 'alerts.test.yml'], {
      cwd: 'deploy/prometheus',
      encoding: 'utf8',
    });
    assert.match(tests, /SUCCESS/);
  });

  it('the compose scrape config is valid and loads the rules', () => {
    const out = execFileSync(PROMTOOL, ['check', 'config', 'deploy/prometheus/prometheus.yml'], { encoding: 'utf8' });
    assert.match(out, /SUCCESS/);
    assert.match(out, /9 rules found/);
  });

  it("the scrape config of `npm run cluster` and the tests is valid, and scrapes Temporal's processes no more often than its floor", () => {
    const targets = { workers: ['127.0.0.1:9001'], ingresses: ['127.0.0.1:9002'], temporal: ['127.0.0.1:9003'] };
    const dir = mkdtempSync(join(tmpdir(), 'payflows-prometheus-'));
    try {
      copyFileSync('deploy/prometheus/alerts.yml', join(dir, 'alerts.yml'));
      for (const intervalSeconds of [2, 15]) {
        const config = prometheusConfig({ ...targets, intervalSeconds });
        writeFileSync(join(dir, 'prometheus.yml'), config);
        assert.match(
          execFileSync(PROMTOOL, ['check', 'config', join(dir, 'prometheus.yml')], { encoding: 'utf8' }),
          /SUCCESS/,
        );
        const temporalJob = config.slice(config.indexOf('job_name: temporal-server'));
        const workerJob = config.slice(
          config.indexOf('job_name: payflows-worker'),
          config.indexOf('job_name: payflows-ingress'),
        );
        assert.doesNotMatch(workerJob, /scrape_interval/, 'the product is scraped at the global interval');
        const every = Math.max(intervalSeconds, TEMPORAL_SCRAPE_FLOOR_SECONDS);
        if (every === intervalSeconds) assert.doesNotMatch(temporalJob, /scrape_interval/);
        else assert.match(temporalJob, new RegExp(`scrape_interval: ${every}s`));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
