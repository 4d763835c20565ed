// The order a suite starts its files in. A suite runs TEST_CONCURRENCY files at once, and `npm test`
// and `npm run test:cluster` run side by side: a long file that starts last runs alone at the end,
// with a core idle beside it (docs/testing.md: a fresh CI ended with minutes of that). So the
// longest files start first; the others keep their order.

/**
 * The longest files and their time in a fresh CI, longest first (both suites' files in one: each
 * suite starts those it runs). The figures only schedule: one gone stale costs minutes, never a
 * verdict. test/unit/test-order.test.ts holds each entry to a file that exists.
 */
export const LONGEST_SECONDS: Readonly<Record<string, number>> = {
  'test/integration/package.test.ts': 273, // npm pack, an install from the tarball, tsc
  'test/cluster/cluster-script.test.ts': 246, // a cluster of its own
  'test/cluster/production-build.test.ts': 221, // npm ci --omit=dev, the image's Node
  'test/integration/replay.test.ts': 184, // a workflow bundle for each worker it compares
  'test/integration/shutdown.test.ts': 139,
  'test/cluster/python-backend.test.ts': 106,
  'test/integration/cache-eviction.test.ts': 101,
  'test/integration/drill.test.ts': 98,
  'test/integration/required-settings.test.ts': 96,
  'test/integration/provisioning.test.ts': 94,
  'test/cluster/mtls.test.ts': 86, // a cluster of its own
  'test/cluster/browser.test.ts': 85,
  'test/cluster/sign-in.test.ts': 83,
  'test/cluster/authorization.test.ts': 71, // a cluster of its own
  'test/integration/workflow-branches.test.ts': 70,
};

/** What a file LONGEST_SECONDS does not name is taken to last: most of them take 5 to 45 s. */
export const OTHER_FILE_SECONDS = 30;

/** LONGEST_SECONDS's files, longest first. */
export const LONGEST_FIRST = Object.entries(LONGEST_SECONDS)
  .sort(([, a], [, b]) => b - a)
  .map(([file]) => file);

/** The file's time by LONGEST_SECONDS (found by its path from the repository's root), else OTHER_FILE_SECONDS. */
export function expectedSeconds(file: string, longest: Readonly<Record<string, number>> = LONGEST_SECONDS): number {
  const named = Object.keys(longest).find((l) => file === l || file.endsWith(`/${l}`));
  return named === undefined ? OTHER_FILE_SECONDS : longest[named]!;
}

/** The files, those LONGEST_FIRST names first in its order, then the others in theirs; each once. */
export function longestFirst(files: readonly string[], longest: readonly string[] = LONGEST_FIRST): string[] {
  const named = (file: string) => longest.findIndex((l) => file === l || file.endsWith(`/${l}`));
  const first = files.filter((f) => named(f) >= 0).sort((a, b) => named(a) - named(b));
  return [...first, ...files.filter((f) => named(f) < 0)];
}
