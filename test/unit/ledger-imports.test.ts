import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, it } from 'node:test';

// Today's ledger holds today's rules only: what runs from before a patch did, and the shapes they
// carried, wrap it or are read into it (wallet/legacy-*.ts), never the other way.

/** The workflow modules a file imports, itself included, followed through the repository's own files. */
function importsOf(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const [, path] of readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)\.js'/g))
    importsOf(normalize(join(dirname(file), `${path}.ts`)), seen);
  return seen;
}

describe("the wallet's current ledger", () => {
  it('imports no legacy module, directly or through another', () => {
    for (const root of ['workflows/wallet/ledger.ts', 'workflows/wallet/drift.ts']) {
      const imported = [...importsOf(root)];
      assert.ok(imported.includes('workflows/wallet/settled-records.ts') || root.endsWith('drift.ts'), imported.join());
      assert.deepEqual(
        imported.filter((file) => /legacy/.test(file)),
        [],
        root,
      );
    }
  });

  it('the scan sees a legacy import where there is one', () => {
    assert.ok([...importsOf('workflows/wallet/run.ts')].includes('workflows/wallet/legacy-float-ledger.ts'));
  });
});
