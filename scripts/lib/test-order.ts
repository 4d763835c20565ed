// The order a suite starts its files in. A suite runs TEST_CONCURRENCY files at once, and `npm test`
// and `npm run test:cluster` run side by side: a long file that starts last runs alone at the end,
// with a core idle beside it (docs/testing.md: a fresh CI ended with minutes of that). So the
// longest files start first; the others keep their order.

/**
 * The longest files, longest first, with their time in a fresh CI (both suites' lists in one: each
 * suite starts those it runs). The order only schedules: a figure gone stale costs minutes, never a
 * verdict. test/unit/test-order.test.ts holds each entry to a file that exists.
 */
export const LONGEST_FIRST = [
  'test/integration/package.test.ts', // 273 s: npm pack, an install from the tarball, tsc
  'test/cluster/cluster-script.test.ts', // 246 s: a cluster of its own
  'test/cluster/production-build.test.ts', // 221 s: npm ci --omit=dev, the image's Node
  'test/integration/replay.test.ts', // 184 s: a workflow bundle for each worker it compares
  'test/integration/shutdown.test.ts', // 139 s
  'test/cluster/python-backend.test.ts', // 106 s
  'test/integration/cache-eviction.test.ts', // 101 s
  'test/integration/drill.test.ts', // 98 s
  'test/integration/required-settings.test.ts', // 96 s
  'test/integration/provisioning.test.ts', // 94 s
  'test/cluster/mtls.test.ts', // 86 s: a cluster of its own
  'test/cluster/browser.test.ts', // 85 s
  'test/cluster/sign-in.test.ts', // 83 s
  'test/cluster/authorization.test.ts', // 71 s: a cluster of its own
  'test/integration/workflow-branches.test.ts', // 70 s
];

/** The files, those LONGEST_FIRST names first in its order, then the others in theirs; each once. */
export function longestFirst(files: readonly string[], longest: readonly string[] = LONGEST_FIRST): string[] {
  const named = (file: string) => longest.findIndex((l) => file === l || file.endsWith(`/${l}`));
  const first = files.filter((f) => named(f) >= 0).sort((a, b) => named(a) - named(b));
  return [...first, ...files.filter((f) => named(f) < 0)];
}
