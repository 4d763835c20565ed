import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { CLI_VERSION, cacheDir, findTemporalCli } from '../../src/temporal/cli.js';

// The order in which the Temporal CLI is found, with fake binaries in temporary folders; the
// build path itself runs for real in CI on a fresh machine (scripts/test.ts).
const root = mkdtempSync(join(tmpdir(), 'payflows-cli-'));
after(() => rmSync(root, { recursive: true, force: true }));

function fakeBinary(dir: string, name = 'temporal'): string {
  mkdirSync(dir, { recursive: true });
  const p = join(dir, name);
  writeFileSync(p, '#!/bin/sh\necho fake\n');
  chmodSync(p, 0o755);
  return p;
}

describe('finding the temporal CLI', () => {
  const pathDir = join(root, 'bin');
  const fromPath = fakeBinary(pathDir);
  const explicit = fakeBinary(join(root, 'explicit'));
  const cacheHome = join(root, 'cache');
  const cached = fakeBinary(cacheDir({ XDG_CACHE_HOME: cacheHome }));

  it('TEMPORAL_CLI_PATH comes first', async () => {
    const found = await findTemporalCli({
      env: { TEMPORAL_CLI_PATH: explicit, PATH: pathDir, XDG_CACHE_HOME: cacheHome },
    });
    assert.deepEqual(found, { kind: 'binary', path: explicit, source: 'TEMPORAL_CLI_PATH' });
  });

  it('a TEMPORAL_CLI_PATH that is not executable is an error naming the variable', async () => {
    await assert.rejects(
      findTemporalCli({ env: { TEMPORAL_CLI_PATH: join(root, 'missing') } }),
      /TEMPORAL_CLI_PATH=.*not an executable/,
    );
  });

  it('then `temporal` on PATH, then the cache outside the repo', async () => {
    assert.deepEqual(await findTemporalCli({ env: { PATH: pathDir, XDG_CACHE_HOME: cacheHome } }), {
      kind: 'binary',
      path: fromPath,
      source: 'PATH',
    });
    assert.deepEqual(await findTemporalCli({ env: { PATH: join(root, 'empty'), XDG_CACHE_HOME: cacheHome } }), {
      kind: 'binary',
      path: cached,
      source: 'cache',
    });
    assert.ok(cached.includes(`temporal-cli-${CLI_VERSION}`), 'the cache is per CLI version');
  });

  it('with nothing found and building not allowed, falls back to the SDK download', async () => {
    const found = await findTemporalCli({
      env: { PATH: join(root, 'empty'), XDG_CACHE_HOME: join(root, 'nocache') },
      build: false,
    });
    assert.equal(found.kind, 'sdk-download');
  });
});
