import type { WorkerDeploymentVersion } from '@temporalio/common';
import type { temporal } from '@temporalio/proto';

// A versioned worker gets no new workflow until its version is the deployment's current one. The
// first version of a deployment makes itself current ("first version bootstraps"), so that a new
// cluster, `npm run dev` and the tests' server need no operator step; after that only an operator
// changes the current version (docs/deploying.md), and a worker never overrides one. The embedded
// dev server (`npm run dev`, TEMPORAL_ADDRESS unset) runs one worker at a time: there the worker
// takes over, or a new commit's worker would wait behind the previous commit's.

type WorkflowService = temporal.api.workflowservice.v1.WorkflowService;

export type CurrentVersionOutcome =
  | { outcome: 'made-current'; previous: string | undefined }
  | { outcome: 'already-current' }
  /** Another version is current: an operator ramps and promotes this one. */
  | { outcome: 'left'; current: string }
  | { outcome: 'gave-up'; reason: string };

export interface BootstrapOptions {
  namespace: string;
  version: WorkerDeploymentVersion;
  /** Make this version current even when another is (the embedded dev server only). */
  takeOver: boolean;
  identity: string;
  /** False once the worker stopped: nothing left to wait for. */
  running: () => boolean;
  timeoutMs?: number;
  intervalMs?: number;
}

// gRPC codes met while the server registers a version that just started polling, or when another
// worker changed the deployment between this one's describe and its set (the conflict token).
const NOT_FOUND = 5;
const FAILED_PRECONDITION = 9;
const ABORTED = 10;
const RETRYABLE = new Set([NOT_FOUND, FAILED_PRECONDITION, ABORTED, 14 /* UNAVAILABLE */]);

export async function bootstrapCurrentVersion(
  service: WorkflowService,
  opts: BootstrapOptions,
): Promise<CurrentVersionOutcome> {
  const { namespace, version } = opts;
  const deadline = Date.now() + (opts.timeoutMs ?? 120_000);
  let last = 'the version was not registered';
  while (Date.now() < deadline) {
    if (!opts.running()) return { outcome: 'gave-up', reason: 'the worker stopped before its version was registered' };
    try {
      const described = await service.describeWorkerDeployment({ namespace, deploymentName: version.deploymentName });
      const info = described.workerDeploymentInfo;
      const current = info?.routingConfig?.currentDeploymentVersion?.buildId || undefined;
      if (current === version.buildId) return { outcome: 'already-current' };
      if (current !== undefined && !opts.takeOver) return { outcome: 'left', current };
      // Set only once the server knows the version (its first poll registers it).
      if (info?.versionSummaries?.some((v) => v.deploymentVersion?.buildId === version.buildId)) {
        await service.setWorkerDeploymentCurrentVersion({
          namespace,
          deploymentName: version.deploymentName,
          buildId: version.buildId,
          // Fails if another worker changed the deployment meanwhile: described again below.
          conflictToken: described.conflictToken,
          identity: opts.identity,
        });
        return { outcome: 'made-current', previous: current };
      }
    } catch (err) {
      const code = (err as { code?: number }).code;
      if (code === undefined || !RETRYABLE.has(code)) return { outcome: 'gave-up', reason: (err as Error).message };
      last = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 500));
  }
  return { outcome: 'gave-up', reason: `no answer within ${(opts.timeoutMs ?? 120_000) / 1000} s: ${last}` };
}

/** The line a worker prints once it knows. */
export function describeOutcome(version: WorkerDeploymentVersion, o: CurrentVersionOutcome): string {
  const v = `${version.deploymentName}:${version.buildId}`;
  switch (o.outcome) {
    case 'made-current':
      return o.previous
        ? `${v} made current in place of ${o.previous} (the embedded dev server's worker takes over)`
        : `${v} made current: the deployment's first version`;
    case 'already-current':
      return `${v} is the current version`;
    case 'left':
      return `${v} is not current (${o.current} is): it gets new runs once an operator ramps or promotes it (docs/deploying.md)`;
    case 'gave-up':
      return `${v}: could not check or set the current version (${o.reason}); set it with \`temporal worker deployment set-current-version\` (docs/deploying.md)`;
  }
}
