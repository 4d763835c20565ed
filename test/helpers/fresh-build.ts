import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtFromThisTree } from '../../scripts/lib/build-fingerprint.js';

// `npm run build` into this tree's dist/ and what a test then reads from it, with no other test
// building meanwhile: the build empties dist/ first, and `npm test` and `npm run test:cluster`,
// which CI runs side by side, each hold a test that builds and reads it. The lock is a folder
// outside the tree, one per tree, holding its owner's pid. A dist/ already built from the tree as
// it is (CI builds before its tests) is used as it is.

const LOCK = join(
  tmpdir(),
  `payflows-build-${createHash('sha256').update(process.cwd()).digest('hex').slice(0, 12)}.lock`,
);

/** Builds dist/ unless it is built from this tree, then answers `use()`, both while holding the tree's build lock. */
export async function withFreshBuild<T>(use: () => T): Promise<T> {
  await takeLock();
  try {
    if (!builtFromThisTree()) execFileSync('npm', ['run', 'build'], { stdio: 'pipe' });
    return use();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

async function takeLock(): Promise<void> {
  for (;;) {
    try {
      mkdirSync(LOCK);
      writeFileSync(join(LOCK, 'pid'), String(process.pid));
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    // A holder that died without releasing it leaves the lock behind: taken over.
    const holder = lockHolder();
    if (holder !== undefined && !alive(holder)) rmSync(LOCK, { recursive: true, force: true });
    else await new Promise((r) => setTimeout(r, 500));
  }
}

/** The pid in the lock; none while its holder is still writing it. */
function lockHolder(): number | undefined {
  try {
    const pid = Number(readFileSync(join(LOCK, 'pid'), 'utf8'));
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
