import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { before, describe, it } from 'node:test';
import { ensurePrometheus, PROMTOOL } from '../../scripts/lib/prometheus.js';

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
});
