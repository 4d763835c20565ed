import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { builtFromThisTree, recordBuiltFrom, sourceFingerprint } from '../../scripts/lib/build-fingerprint.js';
import { committedCheckout } from '../helpers/git-checkout.js';

// A test that needs dist/ as this tree builds it uses the one already there only when it was built
// from the tree exactly as it is now; any change, or no way to tell, builds again.

describe('the build in dist/ and the tree it was built from', () => {
  it('is taken as built from this tree until a file changes, a file is added or WORKER_BUILD_ID differs', (t) => {
    const dir = committedCheckout(t, { '.gitignore': 'dist/\n', 'workflow.ts': 'export const a = 1;\n' });
    if (!dir) return;
    assert.equal(builtFromThisTree(dir), false, 'never built');
    mkdirSync(join(dir, 'dist'));
    recordBuiltFrom(sourceFingerprint(dir), dir);
    assert.equal(builtFromThisTree(dir), true, 'built from the commit, nothing changed since');

    writeFileSync(join(dir, 'workflow.ts'), 'export const a = 2;\n');
    assert.equal(builtFromThisTree(dir), false, 'a changed file');
    recordBuiltFrom(sourceFingerprint(dir), dir);
    assert.equal(builtFromThisTree(dir), true, 'built from the changed tree');
    writeFileSync(join(dir, 'workflow.ts'), 'export const a = 3;\n');
    assert.equal(builtFromThisTree(dir), false, 'changed again');

    writeFileSync(join(dir, 'workflow.ts'), 'export const a = 1;\n');
    recordBuiltFrom(sourceFingerprint(dir), dir);
    writeFileSync(join(dir, 'new-workflow.ts'), 'export const b = 1;\n');
    assert.equal(builtFromThisTree(dir), false, 'a new file');
    rmSync(join(dir, 'new-workflow.ts'));
    assert.equal(builtFromThisTree(dir), true, 'back as it was built');

    const before = process.env.WORKER_BUILD_ID;
    process.env.WORKER_BUILD_ID = 'image-7';
    t.after(() => {
      if (before === undefined) delete process.env.WORKER_BUILD_ID;
      else process.env.WORKER_BUILD_ID = before;
    });
    assert.equal(builtFromThisTree(dir), false, 'another WORKER_BUILD_ID writes another build id');
  });

  it('is never taken as built from a tree outside git, whose changes nothing can tell', (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'payflows-fingerprint-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    mkdirSync(join(dir, 'dist'));
    recordBuiltFrom(sourceFingerprint(dir), dir);
    assert.equal(sourceFingerprint(dir), undefined);
    assert.equal(builtFromThisTree(dir), false);
  });
});
