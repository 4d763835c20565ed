import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { fileURLToPath } from 'node:url';
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { createAccountActivities } from '../activities/accounts.js';
import { createClaimActivities } from '../activities/claims.js';
import { createNotifyActivities, logNotifier, type Notifier } from '../activities/notify.js';
import { createOrderActivities } from '../activities/orders.js';
import { createPaymentMethodActivities } from '../activities/payment-methods.js';
import { createSessionActivities } from '../activities/sessions.js';
import { createUserActivities } from '../activities/users.js';
import { createWalletActivities } from '../activities/wallets.js';
import { claimStoreFromConfig } from '../src/claims/from-config.js';
import type { ClaimStore } from '../src/claims/store.js';
import type { Config } from '../src/config.js';
import type { ProviderClient } from '../src/provider/client.js';
import { callbackUrl, providerCredentials } from '../src/required-settings.js';
import { codecFromConfig, encryptingDataConverter } from '../src/temporal/codec.js';
import {
  type ConnectionLogOptions,
  serviceTokens,
  stopWithConnection,
  temporalUnreachable,
  warnOf,
} from '../src/temporal/connection.js';
import { startTracing, type Tracing, workerTracingOptions } from '../src/telemetry/tracing.js';
import { type BuildIdSource, resolveBuildId } from './build-id.js';
import { type CacheChoice, chooseCacheSize } from './cache-size.js';
import { bootstrapCurrentVersion, type CurrentVersionOutcome } from './current-version.js';
import { memoryFacts } from './memory-limit.js';
import { modulePath, workflowPreloadModules } from './preload-modules.js';

export const workflowsPath = modulePath('workflows/index');
/**
 * The same workflows for a worker with WORKER_VERSIONING=off: a server refuses a versioning
 * behaviour (the wallet's AUTO_UPGRADE) from a worker that is not versioned, so such a worker
 * bundles these at start instead of loading the prebuilt bundles, which are versioned.
 */
export const unversionedWorkflowsPath = modulePath('workflows/unversioned');
/**
 * Compiled (dist/worker/create-worker.js, as in the image), a worker loads the bundle that
 * `npm run build` made beside it instead of bundling the workflows at start: with the tracing
 * interceptors when tracing is on, without them otherwise.
 */
const prebuilt = (file: string) =>
  import.meta.url.endsWith('.js') ? fileURLToPath(new URL(`../${file}`, import.meta.url)) : undefined;
export const prebuiltWorkflowBundle = prebuilt('workflow-bundle.js');
export const prebuiltUntracedWorkflowBundle = prebuilt('workflow-bundle-untraced.js');
/** The workflows' spans, carried on through Temporal's headers (workflows/tracing-interceptors.ts). */
const tracingInterceptorsModule = modulePath('workflows/tracing-interceptors');
/** Bundled with the workflows: the interceptors that count processes and carry traces. */
export const workflowInterceptorModules = [modulePath('workflows/interceptors'), tracingInterceptorsModule];
/**
 * Without the tracing interceptors, for a worker that exports no traces. They add no command, so
 * either bundle replays the other's histories (test/integration/replay.test.ts replays with both).
 */
export const untracedWorkflowInterceptorModules = workflowInterceptorModules.filter(
  (m) => m !== tracingInterceptorsModule,
);
/** The interceptor modules a worker bundles: with the tracing ones only when it exports traces. */
export const workflowInterceptorModulesFor = (opts: { tracing: boolean }): string[] =>
  opts.tracing ? workflowInterceptorModules : untracedWorkflowInterceptorModules;

/** With `warn`: where the connection says what does not stop the worker (a failed token refresh). */
export interface CreateWorkerOptions extends ConnectionLogOptions {
  config: Config;
  provider: ProviderClient;
  connection?: NativeConnection;
  /**
   * A prebuilt bundle (tests build it once per run); otherwise the workflows are bundled now. With
   * WORKER_VERSIONING=off it must be built from workflows/unversioned (unversionedWorkflowsPath).
   */
  workflowBundlePath?: string;
  taskQueue?: string;
  /** Where documents and personal values are kept by reference; default: the local store of CLAIM_STORE_DIR. */
  claims?: ClaimStore;
  /** Where reminders go; default: a log line. */
  notifier?: Notifier;
  /** Where the workflows' and activities' spans go; none by default. */
  tracing?: Tracing;
  /** More activities beside the product's (the benchmarks' yardstick workflow uses one). */
  extraActivities?: Record<string, (...args: never[]) => Promise<unknown>>;
  /**
   * Make this version current whatever is: only `npm run dev`, which started the server itself and
   * runs one worker on it (worker/current-version.ts). Never for a server someone else runs.
   */
  takeOverCurrentVersion?: boolean;
  /** How a run moves between versions unless its workflow says; default PINNED (versioningSettings). */
  defaultVersioningBehavior?: VersioningBehavior;
  overrides?: Partial<WorkerOptions>;
}

/**
 * Draining and capacity from configuration. A stopping worker takes no new tasks and lets running
 * activities finish for WORKER_SHUTDOWN_GRACE (the SDK's default is none: they would be cancelled
 * at once and run again elsewhere); after that they are cancelled, and after a little more the
 * worker stops waiting, so that an orchestrator's own kill comes after a clean exit.
 */
export function workerSettings(config: Config, cache?: CacheChoice): Partial<WorkerOptions> {
  const settings = config.worker;
  // A limit not configured is left out, so that the SDK's default holds.
  const limits = {
    maxConcurrentActivityTaskExecutions: settings.maxConcurrentActivities,
    maxConcurrentWorkflowTaskExecutions: settings.maxConcurrentWorkflowTasks,
    maxCachedWorkflows: cache?.maxCachedWorkflows ?? settings.maxCachedWorkflows,
  };
  return {
    shutdownGraceTime: settings.shutdownGraceMs,
    shutdownForceTime: settings.shutdownGraceMs + 5_000,
    ...Object.fromEntries(Object.entries(limits).filter(([, limit]) => limit !== undefined)),
  };
}

/** A versioned worker's place in its Worker Deployment (WORKER_VERSIONING, docs/deploying.md). */
export interface WorkerVersion {
  deploymentName: string;
  buildId: string;
  /** Where the build id came from, printed at start. */
  source: BuildIdSource;
}

/**
 * The version this configuration runs as; undefined with WORKER_VERSIONING=off. A worker of its
 * caller's bundle (`callersBundle`) needs WORKER_BUILD_ID: payflows' own build id names other code.
 */
export function workerVersion(config: Config, opts: { callersBundle?: boolean } = {}): WorkerVersion | undefined {
  const { enabled, deploymentName, buildId } = config.worker.versioning;
  const context = { embedded: config.temporal.embedded, callersBundle: opts.callersBundle ?? false };
  return enabled ? { deploymentName, ...resolveBuildId(buildId, context) } : undefined;
}

export type VersioningBehavior = 'PINNED' | 'AUTO_UPGRADE';

/**
 * Every run starts PINNED to the version it started on and finishes on that code; the wallet's
 * workflow says AUTO_UPGRADE itself (workflows/wallet/versioning.ts). `npm run dev` asks for
 * AUTO_UPGRADE: its runs follow the code, as before versioning, instead of waiting for a stopped commit.
 */
export function versioningSettings(
  version: WorkerVersion | undefined,
  defaultVersioningBehavior: VersioningBehavior = 'PINNED',
): Partial<WorkerOptions> {
  if (!version) return {};
  return {
    workerDeploymentOptions: {
      version: { deploymentName: version.deploymentName, buildId: version.buildId },
      useWorkerVersioning: true,
      defaultVersioningBehavior,
    },
  };
}

/** The worker's connection; a server that does not take it is a TemporalUnreachableError (one paragraph). */
async function connectNative(config: Config, opts: ConnectionLogOptions): Promise<NativeConnection> {
  const warn = warnOf(opts);
  const tokens = await serviceTokens(config, 'worker', { warn });
  let connection: NativeConnection;
  try {
    connection = await NativeConnection.connect({
      ...config.temporal.connection,
      ...(tokens && { apiKey: tokens.current() }),
    });
  } catch (err) {
    tokens?.stop();
    throw temporalUnreachable(err, 'worker');
  }
  if (tokens) {
    tokens.onRefresh((token) => {
      connection
        .setApiKey(token)
        .catch((err: Error) => warn(`worker: the refreshed Temporal token was not taken: ${err.message}`));
    });
    stopWithConnection(connection, tokens);
  }
  return connection;
}

const STOPPING = new Set(['STOPPING', 'DRAINING', 'DRAINED', 'STOPPED', 'FAILED']);

export async function createWorker(opts: CreateWorkerOptions): Promise<{
  worker: Worker;
  connection: NativeConnection;
  cache: CacheChoice;
  version: WorkerVersion | undefined;
  /** Settles once the worker has polled: whether its version is current (worker/current-version.ts). */
  currentVersion: Promise<CurrentVersionOutcome | undefined>;
}> {
  const { config, provider } = opts;
  // Before connecting: a worker without a build id stops here, with what to set.
  const version = workerVersion(config, { callersBundle: opts.workflowBundlePath !== undefined });
  const connection = opts.connection ?? (await connectNative(config, opts));
  const claims = opts.claims ?? claimStoreFromConfig(config);
  const activities = {
    ...createWalletActivities({ provider, callbackUrl: callbackUrl(config) }),
    ...createAccountActivities({ provider, claims }),
    ...createPaymentMethodActivities({ provider, claims }),
    ...createUserActivities({ provider, accountId: providerCredentials(config).accountId }),
    ...createOrderActivities({ provider }),
    ...createSessionActivities({
      providerOptions: {
        baseUrl: config.provider.baseUrl,
        timeoutMs: config.provider.timeoutMs,
        onCall: provider.onCall,
      },
      claims,
    }),
    ...createNotifyActivities(opts.notifier ?? logNotifier),
    ...createClaimActivities({ claims, retentionMs: config.claims.retentionMs }),
    ...opts.extraActivities,
  };
  const traces = opts.tracing ?? startTracing({ service: 'worker' });
  const tracing = workerTracingOptions(traces);
  // Sized from the memory the worker has, not the SDK's guess from the heap (worker/cache-size.ts).
  const cache = chooseCacheSize(memoryFacts(config.worker));
  const built = traces.enabled ? prebuiltWorkflowBundle : prebuiltUntracedWorkflowBundle;
  const bundlePath = opts.workflowBundlePath ?? (version && built && existsSync(built) ? built : undefined);
  const worker = await Worker.create({
    connection,
    namespace: opts.config.temporal.namespace,
    taskQueue: opts.taskQueue ?? opts.config.temporal.taskQueue,
    ...(bundlePath
      ? { workflowBundle: { codePath: bundlePath } }
      : {
          workflowsPath: version ? workflowsPath : unversionedWorkflowsPath,
          bundlerOptions: { preloadModules: [...workflowPreloadModules] },
        }),
    interceptors: {
      activity: tracing.activityInterceptors,
      ...(bundlePath ? {} : { workflowModules: workflowInterceptorModulesFor({ tracing: traces.enabled }) }),
    },
    sinks: tracing.sinks,
    activities,
    dataConverter: encryptingDataConverter(codecFromConfig(config.payloads)),
    ...workerSettings(config, cache),
    ...versioningSettings(version, opts.defaultVersioningBehavior),
    ...opts.overrides,
  });
  const currentVersion = version
    ? bootstrapCurrentVersion(connection.workflowService, {
        namespace: config.temporal.namespace,
        version,
        taskQueue: worker.options.taskQueue,
        bootstrap: config.worker.versioning.bootstrap,
        takeOver: opts.takeOverCurrentVersion ?? false,
        identity: `payflows-worker ${process.pid}@${hostname()}`,
        running: () => !STOPPING.has(worker.getState()),
      }).catch((err: Error) => ({ outcome: 'gave-up' as const, reason: err.message }))
    : Promise.resolve(undefined);
  return { worker, connection, cache, version, currentVersion };
}
