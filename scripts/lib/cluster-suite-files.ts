// Which files the cluster suite (scripts/test-cluster.ts) leaves out, and which it runs one at a
// time after the others; test/unit/cluster-suite-files.test.ts holds each list to what it says.

/**
 * Integration files that never reach a Temporal server (they replay histories, bundle workflows or
 * run the test runner on fixtures): `npm test` runs them, and here they would only run again.
 */
export const NEVER_REACH_TEMPORAL = [
  'test/integration/replay.test.ts',
  'test/integration/preload-modules.test.ts',
  'test/integration/workflow-bundle.test.ts',
  'test/integration/test-timeouts.test.ts',
];

/** What these do to the one cluster every file shares would fail the files running beside them. */
export const ALONE_ON_THE_CLUSTER = [
  // Kills a history, a matching and a frontend process, and restarts PostgreSQL.
  'test/cluster/temporal-faults.test.ts',
  // Kills a Temporal process and starts it again.
  'test/cluster/server-config.test.ts',
  // SIGKILLs one of the cluster's two workers, which the other files' runs use.
  'test/cluster/scale-out.test.ts',
  // Runs the drill, which turns the cluster sandbox's faults on for every route.
  'test/cluster/drill.test.ts',
  // Ramps and sets the current version of the cluster's worker deployment, then rolls it back.
  'test/cluster/worker-versioning.test.ts',
];
