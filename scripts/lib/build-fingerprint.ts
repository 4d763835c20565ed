import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readTrimmed } from '../../worker/text-file.js';
import { checkoutBuildId } from '../../worker/build-id.js';

// What the build in dist/ was made from, so that what needs dist/ as this tree builds it (the
// package and production-build tests) builds again only when the tree has changed since: CI
// builds once, and each of those tests used to build again, a few minutes of CPU each beside the
// suites. The checkout's id names its commit and a hash of every change and new file.

const FILE = 'dist/.source-fingerprint';

/** The tree as a build would be made from it now; undefined outside a git checkout (then always build). */
export function sourceFingerprint(cwd = process.cwd()): string | undefined {
  const checkout = checkoutBuildId(cwd);
  // WORKER_BUILD_ID changes dist/build-id.txt without changing the tree.
  return checkout && `${checkout} WORKER_BUILD_ID=${process.env.WORKER_BUILD_ID ?? ''}`;
}

/** Written last by scripts/build.ts: a build that failed midway left dist/ without it. */
export function recordBuiltFrom(fingerprint: string | undefined, cwd = process.cwd()): void {
  if (fingerprint) writeFileSync(join(cwd, FILE), `${fingerprint}\n`);
}

/** Whether dist/ was built from the tree as it is now. */
export function builtFromThisTree(cwd = process.cwd()): boolean {
  const now = sourceFingerprint(cwd);
  return now !== undefined && readTrimmed(join(cwd, FILE)) === now;
}
