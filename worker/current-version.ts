import type { WorkerDeploymentVersion } from '@temporalio/common';
import type { temporal } from '@temporalio/proto';

// A versioned worker gets no new workflow until its version is the deployment's current one. With
// WORKER_VERSION_BOOTSTRAP on, a deployment's very first version makes itself current, so that dev,
// cluster and test servers need no operator step; never once any current version was set, while
// something ramps, or beside another version or unversioned pollers (docs/deploying.md): that is
// the operator's. `npm run dev` alone takes over (takeOver): it started the server and runs one worker.

type WorkflowService = temporal.api.workflowservice.v1.WorkflowService;

/** What `left` reports when the current version is the unversioned workers. */
export const UNVERSIONED = 'unversioned workers';

export type CurrentVersionOutcome =
  | { outcome: 'made-current'; previous: string | undefined }
  | { outcome: 'already-current' }
  /** Not current, and not this worker's to change: an operator ramps and promotes it. */
  | { outcome: 'left'; current: string | undefined; why: string }
  | { outcome: 'gave-up'; reason: string };

export interface BootstrapOptions {
  namespace: string;
  version: WorkerDeploymentVersion;
  /** The worker's workflow task queue: unversioned pollers there mean a migration (docs/deploying.md). */
  taskQueue: string;
  /** Make the deployment's first version current (WORKER_VERSION_BOOTSTRAP); off, only report. */
  bootstrap: boolean;
  /** Make this version current whatever is (only `npm run dev`, which started its own server). */
  takeOver: boolean;
  identity: string;
  /** False once the worker stopped: nothing left to wait for. */
  running: () => boolean;
  timeoutMs?: number;
  intervalMs?: number;
}

// gRPC codes met while a new version registers, or when another worker changed the deployment first.
const NOT_FOUND = 5;
const FAILED_PRECONDITION = 9;
const ABORTED = 10;
const RETRYABLE = new Set([NOT_FOUND, FAILED_PRECONDITION, ABORTED, 14 /* UNAVAILABLE */]);

type Described = Awaited<ReturnType<WorkflowService['describeWorkerDeployment']>>;
type Decision = { set: true } | { set: false; outcome?: CurrentVersionOutcome };

/** Whether this worker may make its version current now, from what the server says. */
async function decide(service: WorkflowService, opts: BootstrapOptions, described: Described): Promise<Decision> {
  const { version } = opts;
  const info = described.workerDeploymentInfo;
  const routing = info?.routingConfig;
  const current = routing?.currentDeploymentVersion?.buildId || undefined;
  if (current === version.buildId) return { set: false, outcome: { outcome: 'already-current' } };
  const everSet = Boolean(routing?.currentVersionChangedTime);
  const currentName = current ?? (everSet ? UNVERSIONED : undefined);
  const left = (why: string): Decision => ({ set: false, outcome: { outcome: 'left', current: currentName, why } });
  if (!opts.bootstrap && !opts.takeOver) return left('WORKER_VERSION_BOOTSTRAP is off');
  // Set only once the server knows the version (its first poll registers it).
  const registered = info?.versionSummaries ?? [];
  const known = registered.some((v) => v.deploymentVersion?.buildId === version.buildId);
  if (opts.takeOver) return known ? { set: true } : { set: false };
  if (everSet) return left('a current version was set before');
  const ramping = routing?.rampingDeploymentVersion?.buildId || undefined;
  if (ramping || routing?.rampingVersionChangedTime || routing?.rampingVersionPercentage)
    return left(`${ramping ?? UNVERSIONED} is ramping`);
  if (!known) return { set: false };
  const others = registered.map((v) => v.deploymentVersion?.buildId).filter((b) => b && b !== version.buildId);
  if (others.length) return left(`other versions are registered (${others.join(', ')})`);
  const { pollers } = await service.describeTaskQueue({
    namespace: opts.namespace,
    taskQueue: { name: opts.taskQueue, kind: 1 /* NORMAL */ },
    taskQueueType: 1 /* WORKFLOW */,
  });
  const unversioned = (pollers ?? []).filter((p) => !p.deploymentOptions?.buildId);
  if (unversioned.length)
    return left(`unversioned workers poll ${opts.taskQueue} (${unversioned.map((p) => p.identity).join(', ')})`);
  return { set: true };
}

export async function bootstrapCurrentVersion(
  service: WorkflowService,
  opts: BootstrapOptions,
): Promise<CurrentVersionOutcome> {
  const { namespace, version } = opts;
  const timeoutMs = opts.timeoutMs ?? 120_000;
  const deadline = Date.now() + timeoutMs;
  let last = 'the version was not registered';
  let lastPrecondition: string | undefined;
  while (Date.now() < deadline) {
    if (!opts.running()) return { outcome: 'gave-up', reason: 'the worker stopped before its version was registered' };
    try {
      const described = await service.describeWorkerDeployment({ namespace, deploymentName: version.deploymentName });
      const decision = await decide(service, opts, described);
      if (decision.set) {
        const previous = described.workerDeploymentInfo?.routingConfig?.currentDeploymentVersion?.buildId || undefined;
        await service.setWorkerDeploymentCurrentVersion({
          namespace,
          deploymentName: version.deploymentName,
          buildId: version.buildId,
          // Fails if another worker or an operator changed the deployment meanwhile: decided again below.
          conflictToken: described.conflictToken,
          identity: opts.identity,
        });
        return { outcome: 'made-current', previous };
      }
      if (decision.outcome) return decision.outcome;
    } catch (err) {
      const code = (err as { code?: number }).code;
      const message = (err as Error).message;
      if (code === undefined || !RETRYABLE.has(code)) return { outcome: 'gave-up', reason: message };
      // A conflict passes once described again; the same refusal twice is the server's answer.
      if (code === FAILED_PRECONDITION && message === lastPrecondition) return { outcome: 'gave-up', reason: message };
      lastPrecondition = code === FAILED_PRECONDITION ? message : undefined;
      last = message;
    }
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 500));
  }
  return { outcome: 'gave-up', reason: `no answer within ${timeoutMs / 1000} s: ${last}` };
}

/** The line a worker prints once it knows. */
export function describeOutcome(version: WorkerDeploymentVersion, o: CurrentVersionOutcome): string {
  const v = `${version.deploymentName}:${version.buildId}`;
  switch (o.outcome) {
    case 'made-current':
      return o.previous
        ? `${v} made current in place of ${o.previous} (npm run dev's worker takes over)`
        : `${v} made current: the deployment's first version (WORKER_VERSION_BOOTSTRAP)`;
    case 'already-current':
      return `${v} is the current version`;
    case 'left':
      return `${v} is not current (${o.current ? `${o.current} is` : 'none is'}; ${o.why}): it gets new runs once an operator ramps or promotes it (docs/deploying.md)`;
    case 'gave-up':
      return `${v}: could not check or set the current version (${o.reason}); set it with \`temporal worker deployment set-current-version\` (docs/deploying.md)`;
  }
}
