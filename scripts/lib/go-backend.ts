import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runGo } from '../../src/temporal/go-install.js';
import { cacheRoot, go } from './go-tools.js';
import { isExecutable } from '../../src/executable.js';

// examples/go-backend built with the machine's Go, its modules from the Go module proxy as go.sum
// pins them (-mod=readonly: a go.mod that needs tidying fails the build, it is never rewritten),
// into the cache outside the repo under a hash of its sources and of the Go version: built once
// per change, reused by every run after.

export const GO_BACKEND_DIR = resolve('examples/go-backend');

/** A hash of what the binary is built from: go.mod, go.sum, the .go files, and the toolchain. */
export function goBackendHash(dir = GO_BACKEND_DIR, goVersion = execFileSync(go(), ['version'], { encoding: 'utf8' })) {
  const hash = createHash('sha256').update(goVersion);
  const files = readdirSync(dir)
    .filter((f) => f === 'go.mod' || f === 'go.sum' || f.endsWith('.go'))
    .sort();
  for (const f of files) hash.update(`\0${f}\0`).update(readFileSync(join(dir, f)));
  return hash.digest('hex').slice(0, 16);
}

/** The binary of examples/go-backend, built if this version of it has not been. */
export async function buildGoBackend(log: (line: string) => void): Promise<string> {
  const dir = join(cacheRoot(), 'go-backend', goBackendHash());
  const path = join(dir, 'go-backend');
  if (isExecutable(path)) return path;
  mkdirSync(dir, { recursive: true });
  log(`building examples/go-backend into ${dir} (once per change of its sources)…`);
  // Built beside, then renamed: a build cut short leaves no binary that looks finished.
  const partial = `${path}.${process.pid}.partial`;
  try {
    await runGo(go(), ['build', '-trimpath', '-o', partial, '.'], {
      cwd: GO_BACKEND_DIR,
      env: { ...process.env, GOFLAGS: [process.env.GOFLAGS, '-mod=readonly'].filter(Boolean).join(' ') },
      log,
    });
    renameSync(partial, path);
  } finally {
    rmSync(partial, { force: true });
  }
  return path;
}
