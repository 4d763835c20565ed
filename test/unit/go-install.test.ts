import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { goInstall } from '../../src/temporal/go-install.js';

// `go install` into the cache, with a stand-in `go` that writes its binary in two halves: the
// cache's folder holds a binary only once one was installed whole, since a process that finds an
// executable there (the other suite running beside, a later run) takes it as built.
const root = mkdtempSync(join(tmpdir(), 'payflows-go-install-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** A `go` that writes "half" into $GOBIN/tool, made executable, then finishes it or fails. */
function fakeGo(outcome: 'finishes' | 'fails'): string {
  const go = join(root, `go-${outcome}`);
  writeFileSync(
    go,
    [
      '#!/bin/sh',
      'printf half > "$GOBIN/tool"',
      'chmod +x "$GOBIN/tool"',
      outcome === 'finishes' ? 'printf whole > "$GOBIN/tool"' : 'echo "go: build failed" >&2; exit 1',
      '',
    ].join('\n'),
  );
  chmodSync(go, 0o755);
  return go;
}

describe('goInstall', () => {
  it('puts the binary into the folder once it is whole', async () => {
    const dir = join(root, 'whole');
    mkdirSync(dir);
    await goInstall(fakeGo('finishes'), 'example.com/tool@v1', dir, () => {});
    assert.deepEqual(readdirSync(dir), ['tool']);
    assert.equal(readFileSync(join(dir, 'tool'), 'utf8'), 'whole');
  });

  it('a build that fails leaves nothing in the folder', async () => {
    const dir = join(root, 'failed');
    mkdirSync(dir);
    await assert.rejects(
      goInstall(fakeGo('fails'), 'example.com/tool@v1', dir, () => {}),
      /go install example\.com\/tool@v1 failed \(exit 1\):\ngo: build failed/,
    );
    assert.deepEqual(readdirSync(dir), []);
  });
});
