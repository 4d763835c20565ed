import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { GO_BUILD_FLAGS, goInstall } from '../../src/temporal/go-install.js';
import { GO_TEST_ARGS, sourcesHash, TEST_TOOL_BUILD_FLAGS, TOOLS } from '../../scripts/lib/go-tools.js';

// `go install` into the cache, with a stand-in `go` that writes its binary in two halves: the
// cache's folder holds a binary only once one was installed whole, since a process that finds an
// executable there (the other suite running beside, a later run) takes it as built.
const root = mkdtempSync(join(tmpdir(), 'payflows-go-install-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** A `go` that writes "half" into $GOBIN/tool, made executable, then finishes it or fails; its arguments in $GOBIN/../args. */
function fakeGo(outcome: 'finishes' | 'fails'): string {
  const go = join(root, `go-${outcome}`);
  writeFileSync(
    go,
    [
      '#!/bin/sh',
      'printf "%s\\n" "$@" > "$GOBIN/../args"',
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
    assert.deepEqual(readdirSync(dir).sort(), ['args', 'tool']);
    assert.equal(readFileSync(join(dir, 'tool'), 'utf8'), 'whole');
  });

  it('compiles with the flags every Go build and go test here share', async () => {
    const dir = join(root, 'flags');
    mkdirSync(dir);
    await goInstall(fakeGo('finishes'), 'example.com/tool@v1', dir, () => {});
    const args = readFileSync(join(dir, 'args'), 'utf8').trim().split('\n');
    assert.deepEqual(args, ['install', ...GO_BUILD_FLAGS, 'example.com/tool@v1']);
    // Other flags in `go test` would miss every package the build compiled, and compile them again.
    assert.deepEqual(
      GO_TEST_ARGS.filter((a) => a.startsWith('-gcflags') || a.startsWith('-ldflags')),
      GO_BUILD_FLAGS,
    );
  });

  it('compiles a tool with the flags it is given; the UI, which reuses the CLI’s packages, with the CLI’s', async () => {
    const dir = join(root, 'tool-flags');
    mkdirSync(dir);
    await goInstall(fakeGo('finishes'), 'example.com/tool@v1', dir, () => {}, { flags: TEST_TOOL_BUILD_FLAGS });
    const args = readFileSync(join(dir, 'args'), 'utf8').trim().split('\n');
    assert.deepEqual(args, ['install', '-gcflags=all=-N -l -dwarf=false', '-ldflags=-w', 'example.com/tool@v1']);
    assert.deepEqual(TOOLS.ui.flags, GO_BUILD_FLAGS);
  });

  it('a build that fails leaves nothing in the folder', async () => {
    const dir = join(root, 'failed');
    mkdirSync(dir);
    await assert.rejects(
      goInstall(fakeGo('fails'), 'example.com/tool@v1', dir, () => {}),
      /go install -gcflags=all=-dwarf=false -ldflags=-w example\.com\/tool@v1 failed \(exit 1\):\ngo: build failed/,
    );
    assert.deepEqual(readdirSync(dir), ['args']);
  });
});

describe('sourcesHash', () => {
  it('changes with the build flags, so that a module is built again when they change', () => {
    const dir = join(root, 'module');
    mkdirSync(dir);
    writeFileSync(join(dir, 'go.mod'), 'module example.com/m\n');
    writeFileSync(join(dir, 'main.go'), 'package main\nfunc main() {}\n');
    const goVersion = 'go version go1.26.8 linux/amd64';
    assert.equal(sourcesHash(dir, goVersion), sourcesHash(dir, goVersion, GO_BUILD_FLAGS));
    assert.notEqual(sourcesHash(dir, goVersion, []), sourcesHash(dir, goVersion, GO_BUILD_FLAGS));
    assert.notEqual(sourcesHash(dir, 'go version go1.27.0 linux/amd64'), sourcesHash(dir, goVersion));
  });
});
