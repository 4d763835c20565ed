// Which files the cluster suite (scripts/test-cluster.ts) leaves out, and which it runs one at a
// time, in what order; test/unit/cluster-suite-files.test.ts holds each list to what it says.

import { besideAndAlone } from './test-run.js';

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

/**
 * Integration files whose subject is a process or script of ours, not the server under their stack:
 * they check the same thing on the dev server and on the cluster, so `npm test` runs them once.
 * Each names the cluster file that covers what its subject does on the cluster, if anything does.
 */
export const SAME_ON_EITHER_SERVER = [
  // npm pack and install, and the README's example; the Go and Python backends drive the cluster
  // (test/cluster/go-backend.test.ts, python-backend.test.ts).
  'test/integration/package.test.ts',
  // The worker's cache sized by its own memory: its RSS and heap, its eviction metric.
  'test/integration/cache-eviction.test.ts',
  // SIGTERM drains the worker and the ingress; a Temporal that stops answering is a TCP door of the
  // test's own. test/cluster/scale-out.test.ts kills a cluster worker mid-deposit.
  'test/integration/shutdown.test.ts',
  // The drill on a stack of the test's own; test/cluster/drill.test.ts runs it on the cluster.
  'test/integration/drill.test.ts',
  // Settings that refuse to start, and where the ingress listens: decided before any connection.
  'test/integration/required-settings.test.ts',
  'test/integration/ingress-host.test.ts',
  // Scripts pointed at a Temporal and a provider that are not there.
  'test/integration/script-reach.test.ts',
  // A worker's failed-task metric and the shipped alerts over it; test/cluster/dashboards.test.ts
  // reads the cluster's Prometheus.
  'test/integration/workflow-task-alerts.test.ts',
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

/**
 * Files that use nothing of the suite's cluster: they start a cluster of their own (its processes
 * on ports and in a folder of their own, with an environment of their own) and none of the suite's
 * processes. So no fault of the files run alone reaches them, and they run beside those, in a lane
 * of their own: the files run alone mostly wait, and with them one after another the cluster suite
 * ran 146 s longer than `npm test` (CI26), its cores idle in the meantime.
 */
export const APART_FROM_THE_CLUSTER = ['test/cluster/cluster-script.test.ts'];

/**
 * Of the files run alone, those that leave the cluster short of something the others use: they run
 * after everything else. The worker scale-out kills and starts again ends with the file, so the
 * cluster keeps one worker of its two.
 */
export const LAST_ON_THE_CLUSTER = ['test/cluster/scale-out.test.ts'];

/**
 * The cluster suite's files in the order it runs them: first those run alone, one at a time, while
 * `npm test` keeps the cores busy beside them (they mostly wait, for a process to come back or for
 * PostgreSQL, and at the end of CI, with `npm test` done, the cores would idle through them), and
 * those apart from the cluster in a lane beside them; then the others, in lanes split by their
 * expected time (test-lanes.ts); then those run alone that must come last.
 */
export function clusterPhases(files: string[]): {
  aloneFirst: string[];
  apart: string[];
  beside: string[];
  aloneLast: string[];
} {
  const { beside: shared, alone: apart } = besideAndAlone(files, APART_FROM_THE_CLUSTER);
  const { beside, alone } = besideAndAlone(shared, ALONE_ON_THE_CLUSTER);
  const { beside: aloneFirst, alone: aloneLast } = besideAndAlone(alone, LAST_ON_THE_CLUSTER);
  return { aloneFirst, apart, beside, aloneLast };
}

/** The files the cluster suite runs when given none: every integration and cluster file it does not leave to `npm test`. */
export function clusterSuiteFiles(integration: string[], cluster: string[]): string[] {
  const leftToNpmTest = new Set([...NEVER_REACH_TEMPORAL, ...SAME_ON_EITHER_SERVER]);
  return [...integration, ...cluster].filter((f) => !leftToNpmTest.has(f));
}
