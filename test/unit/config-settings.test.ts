import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { settingRows } from '../../scripts/lib/config-doc.js';
import { ConfigError, envSchema, loadConfig } from '../../src/config.js';
import { KYC_ATTEMPTS_PER_FIELD, PROCESS_TIMING_DEFAULTS, WALLET_TIMING_DEFAULTS } from '../../src/process-defaults.js';
import { LIBRARY_SETTINGS } from '../../src/settings/library.js';
import { ALL_SETTINGS } from '../../src/settings/table.js';
import { MAX_ATTEMPTS_PER_FIELD } from '../../workflows/kyc/contract.js';
import { TIMING_DEFAULTS } from '../../workflows/lib/contract.js';
import { WALLET_TIMING_DEFAULTS as WALLET_CONTRACT_DEFAULTS } from '../../workflows/wallet/contract.js';

// Each setting is described once (src/settings/table.ts): the environment's schema, the reference
// in docs/configuration.md and the loader all come from that description, and the processes'
// defaults from their one home (src/process-defaults.ts), which their contracts re-export.

const refused = (env: Record<string, string>, name: string) =>
  assert.throws(
    () => loadConfig(env),
    (err: unknown) => err instanceof ConfigError && new RegExp(`\\n  ${name}: \\S`).test(err.message),
    JSON.stringify(env),
  );

describe('each setting described once', () => {
  it('every variable the schema reads has exactly one description, and no other variable is described', () => {
    const names = ALL_SETTINGS.map((s) => s.env);
    assert.equal(new Set(names).size, names.length, 'no variable described twice');
    assert.deepEqual([...names].sort(), Object.keys(envSchema.shape).sort());
    const library = Object.keys(LIBRARY_SETTINGS).flatMap((n) => n.split(', '));
    assert.deepEqual(
      library.filter((n) => names.includes(n)),
      [],
      'a variable the schema reads is not described again among the libraries',
    );
  });

  it("a default that is a value is the schema's, and the document shows that value, formatted", () => {
    const rows = settingRows();
    for (const s of ALL_SETTINGS) {
      const row = rows.get(s.env) ?? '';
      assert.ok(row.includes(` | ${s.defaultText} | `), `${s.env}'s row shows its default`);
      if (s.default === undefined) continue;
      assert.deepEqual(envSchema.shape[s.env]?.parse(undefined), s.default, s.env);
      assert.ok(s.defaultText.startsWith(`\`${s.show(s.default)}\``), `${s.env}: ${s.defaultText}`);
    }
    const text = (env: string) => ALL_SETTINGS.find((s) => s.env === env)!.defaultText;
    assert.equal(text('WALLET_POLL_MAX'), '`90m`');
    assert.equal(text('PROVIDER_TIMEOUT'), '`15s`');
    assert.equal(text('CLAIM_RETENTION'), '`30d`');
    assert.equal(text('PROCESS_POLL_MAX'), '`15m`');
    assert.equal(text('TEMPORAL_PORT'), '`7233`');
    assert.equal(text('TEMPORAL_TASK_QUEUE'), '`payflows`');
    assert.match(text('PROVIDER_MAX_ANSWER_BYTES'), /^`8388608` \(8 MiB\)/);
  });

  it("the processes' defaults are their contracts', held in one place", () => {
    assert.equal(TIMING_DEFAULTS, PROCESS_TIMING_DEFAULTS, 'the contract re-exports the one object');
    assert.equal(WALLET_CONTRACT_DEFAULTS, WALLET_TIMING_DEFAULTS, 'the contract re-exports the one object');
    assert.equal(MAX_ATTEMPTS_PER_FIELD, KYC_ATTEMPTS_PER_FIELD, 'the contract re-exports the one object');
    const config = loadConfig({});
    assert.deepEqual(config.processes.timing, { ...TIMING_DEFAULTS });
    assert.deepEqual(config.wallet, { ...WALLET_CONTRACT_DEFAULTS });
    assert.equal(config.processes.kycMaxAttempts, MAX_ATTEMPTS_PER_FIELD.default);
    assert.equal(loadConfig({ KYC_MAX_ATTEMPTS: String(MAX_ATTEMPTS_PER_FIELD.max) }).processes.kycMaxAttempts, 50);
    refused({ KYC_MAX_ATTEMPTS: String(MAX_ATTEMPTS_PER_FIELD.max + 1) }, 'KYC_MAX_ATTEMPTS');
    refused({ KYC_MAX_ATTEMPTS: '0' }, 'KYC_MAX_ATTEMPTS');
  });

  it('a setting that a process refuses to start without says how to set it', () => {
    for (const env of [
      'PROVIDER_API_KEY',
      'PROVIDER_SECRET_KEY',
      'PROVIDER_ACCOUNT_ID',
      'INGRESS_PUBLIC_URL',
      'PROVIDER_CALLBACK_SECRETS',
      'CLAIM_ENCRYPTION_KEY',
      'PAYLOAD_ENCRYPTION_KEY',
    ])
      assert.ok(ALL_SETTINGS.find((s) => s.env === env)?.howToSet, `${env} says how to set it`);
  });
});
