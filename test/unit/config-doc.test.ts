import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { CONFIG_DOC, configDrift } from '../../scripts/lib/config-doc.js';
import { envSchema } from '../../src/config.js';

// docs/configuration.md is generated from the config schema and cannot go stale: `npm run lint`
// runs the same check (`scripts/docs-config.ts --check`) and names the variable that drifted.

const doc = readFileSync(CONFIG_DOC, 'utf8');
const rowOf = (name: string) => doc.split('\n').find((l) => l.startsWith(`| \`${name}\``))!;

describe('docs/configuration.md against the config schema', () => {
  it('is current, and has a row for every variable the schema reads', async () => {
    assert.deepEqual(await configDrift(doc), []);
    for (const name of Object.keys(envSchema.shape)) assert.ok(rowOf(name), `${CONFIG_DOC} describes ${name}`);
  });

  it('names a variable whose default changed in the document', async () => {
    const edited = doc.replace(rowOf('PROVIDER_TIMEOUT'), rowOf('PROVIDER_TIMEOUT').replace('`15s`', '`20s`'));
    assert.deepEqual(await configDrift(edited), ['PROVIDER_TIMEOUT']);
  });

  it('names a variable missing from the document, and one the schema does not read', async () => {
    assert.deepEqual(await configDrift(doc.replace(`${rowOf('KYC_MAX_ATTEMPTS')}\n`, '')), ['KYC_MAX_ATTEMPTS']);
    const extra = doc.replace(rowOf('LOG_LEVEL'), `${rowOf('LOG_LEVEL')}\n| \`OLD_SETTING\` | unset | gone |`);
    assert.ok((await configDrift(extra)).includes('OLD_SETTING'));
  });
});
