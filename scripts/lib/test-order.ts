// How long each file takes, in each suite: the lanes (test-lanes.ts) split a suite's files by it so
// that they end together. `npm test` and `npm run test:cluster` run side by side on cores that are
// busy throughout, so a lane that ends minutes after the other leaves a core idle at the end of CI.
// A file takes a different time on each server (a wallet's flow is slower on the dev server), so
// each suite has its own figures.

/**
 * The files' seconds in a fresh CI (CI26: its lanes' processes, two per suite, side by side), as the
 * runner reports them; a file run in a process of its own (test-lanes.ts, OWN_PROCESS) with the
 * process's start. The figures only schedule: one gone stale costs minutes, never a verdict.
 * test/unit/test-order.test.ts holds each entry to a file the suite runs in its lanes.
 */
export const SECONDS_ON_THE_DEV_SERVER: Readonly<Record<string, number>> = {
  'test/integration/workflow-branches.test.ts': 152,
  'test/integration/wallet-polling.test.ts': 60, // 121 in CI26, a minute of it a failure's
  'test/integration/package.test.ts': 118, // npm pack, an install from the tarball, tsc
  'test/integration/replay.test.ts': 116, // a workflow bundle for each worker it compares
  'test/integration/drill.test.ts': 113,
  'test/integration/shutdown.test.ts': 108,
  'test/integration/cache-eviction.test.ts': 96,
  'test/integration/provisioning.test.ts': 90,
  'test/integration/test-timeouts.test.ts': 79,
  'test/integration/required-settings.test.ts': 77,
  'test/integration/wallet.test.ts': 76,
  'test/integration/workflow-task-alerts.test.ts': 70,
  'test/integration/ingress.test.ts': 69,
  'test/integration/script-reach.test.ts': 55,
  'test/integration/worker-versioning.test.ts': 52,
  'test/integration/claims-lifecycle.test.ts': 49,
  'test/integration/kyc.test.ts': 48,
  'test/integration/idempotency.test.ts': 45,
  'test/integration/onboarding.test.ts': 39,
  'test/integration/trace-scope.test.ts': 36,
  'test/integration/ach-followup.test.ts': 35,
  'test/integration/preload-modules.test.ts': 33,
  'test/integration/checkout.test.ts': 27,
  'test/integration/prometheus.test.ts': 23,
  'test/integration/failure-privacy.test.ts': 19,
  'test/integration/workflow-bundle.test.ts': 19,
  'test/integration/tracing.test.ts': 15,
  'test/integration/wallet-ended-polls.test.ts': 15,
  'test/integration/ingress-doors.test.ts': 12,
  'test/integration/ingress-host.test.ts': 8,
  'test/integration/worker-metrics.test.ts': 8,
  'test/integration/ingress-metrics.test.ts': 7,
  'test/integration/codec-cli.test.ts': 6,
  'test/integration/codec-server-metrics.test.ts': 5,
  'test/integration/worker-process.test.ts': 4,
  'test/integration/encryption.test.ts': 3,
  'test/integration/claims-s3.test.ts': 2,
};

/** The same for the cluster suite's files that run beside each other (not those it runs alone). */
export const SECONDS_ON_THE_CLUSTER: Readonly<Record<string, number>> = {
  'test/cluster/cluster-script.test.ts': 205, // a cluster of its own
  'test/integration/workflow-branches.test.ts': 192,
  'test/cluster/production-build.test.ts': 176, // npm ci --omit=dev, the image's Node
  'test/cluster/python-backend.test.ts': 112,
  'test/cluster/browser.test.ts': 93,
  'test/cluster/sign-in.test.ts': 93,
  'test/cluster/mtls.test.ts': 85, // a cluster of its own
  'test/cluster/authorization.test.ts': 57, // a cluster of its own
  'test/integration/wallet.test.ts': 48,
  'test/integration/provisioning.test.ts': 41,
  'test/integration/trace-scope.test.ts': 37,
  'test/integration/wallet-polling.test.ts': 37,
  'test/integration/ach-followup.test.ts': 31,
  'test/integration/tracing.test.ts': 29,
  'test/integration/prometheus.test.ts': 24,
  'test/integration/ingress.test.ts': 21,
  'test/integration/onboarding.test.ts': 18,
  'test/integration/worker-metrics.test.ts': 18,
  'test/integration/kyc.test.ts': 17,
  'test/integration/claims-lifecycle.test.ts': 14,
  'test/integration/idempotency.test.ts': 14,
  'test/integration/wallet-ended-polls.test.ts': 12,
  'test/integration/worker-versioning.test.ts': 12,
  'test/integration/checkout.test.ts': 9,
  'test/cluster/dashboards.test.ts': 7,
  'test/cluster/compose-config.test.ts': 6,
  'test/integration/failure-privacy.test.ts': 5,
  'test/integration/ingress-metrics.test.ts': 5,
  'test/cluster/go-backend.test.ts': 4,
  'test/integration/ingress-doors.test.ts': 4,
  'test/cluster/helm-chart.test.ts': 3,
  'test/integration/codec-cli.test.ts': 3,
  'test/integration/codec-server-metrics.test.ts': 2,
  'test/integration/encryption.test.ts': 2,
  'test/integration/worker-process.test.ts': 2,
  'test/integration/claims-s3.test.ts': 1,
};

/** What a file the figures do not name (a new one) is taken to last. */
export const OTHER_FILE_SECONDS = 30;

/** The file's seconds in `figures` (found by its path from the repository's root), else OTHER_FILE_SECONDS. */
export function expectedSeconds(file: string, figures: Readonly<Record<string, number>>): number {
  const named = Object.keys(figures).find((f) => file === f || file.endsWith(`/${f}`));
  return named === undefined ? OTHER_FILE_SECONDS : figures[named]!;
}
