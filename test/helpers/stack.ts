import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, type RuntimeOptions } from '@temporalio/worker';
import type { Reminder } from '../../activities/notify.js';
import { LocalClaimStore } from '../../src/claims/store.js';
import { loadConfig, SANDBOX_CREDENTIALS } from '../../src/config.js';
import { connectTemporal, serviceTokens, stopWithConnection } from '../../src/temporal/connection.js';
import { fetchToken } from '../../src/temporal/service-token.js';
import type { Tracing } from '../../src/telemetry/tracing.js';
import { WalletsClient } from '../../workflows/wallet/client.js';
import { describeOutcome } from '../../worker/current-version.js';
import { operatorCalls } from '../../scripts/fixtures/operator.js';
import { temporalServiceEnv } from '../../scripts/lib/sign-in.js';
import { startStack as startProductStack, stopStack } from '../../scripts/lib/stack.js';
import { clusterDescription } from './cluster.js';

// A whole product stack for one test file: the sandbox and the ingress on ephemeral ports, and a
// worker on a task queue of its own, against the run's shared Temporal dev server.

let runtimeInstalled = false;

export function temporalAddress(): string {
  const address = process.env.TEMPORAL_ADDRESS;
  if (!address)
    throw new Error('TEMPORAL_ADDRESS is unset: run the tests with `npm test`, which starts the Temporal dev server');
  return address;
}

/**
 * How the run's clients and workers reach Temporal: its address; on the cluster (`npm run
 * test:cluster`, TEST_CLUSTER), which authorizes, TLS and the admin's client credentials too: the
 * tests end and reset what they start, which the services' writer role may not (the cluster's own
 * workers and ingress run as services).
 */
export function temporalSettings(): { TEMPORAL_ADDRESS: string } & Record<string, string> {
  if (!process.env.TEST_CLUSTER) return { TEMPORAL_ADDRESS: temporalAddress() };
  const cluster = clusterDescription();
  return {
    TEMPORAL_ADDRESS: temporalAddress(),
    ...temporalServiceEnv(cluster.temporal, cluster.signIn, { as: 'admin' }),
  };
}

/**
 * The Temporal CLI's flags to reach the run's Temporal: its address; on the cluster, TLS with its CA
 * and an administrator's token as the API key (a short-lived command needs no refresh).
 */
export async function temporalCliConnection(): Promise<string[]> {
  const settings = temporalSettings();
  const address = ['--address', settings.TEMPORAL_ADDRESS];
  const { TEMPORAL_OAUTH_TOKEN_URL: tokenUrl, TEMPORAL_OAUTH_CLIENT_ID: clientId } = settings;
  if (!tokenUrl || !clientId) return address;
  const { token } = await fetchToken({ tokenUrl, clientId, clientSecret: settings.TEMPORAL_OAUTH_CLIENT_SECRET! });
  return [
    ...address,
    '--tls-ca-path',
    settings.TEMPORAL_TLS_SERVER_CA_CERT_PATH!,
    '--tls-server-name',
    settings.TEMPORAL_TLS_SERVER_NAME!,
    '--api-key',
    token,
  ];
}

/**
 * A client's and a worker's connection to the run's Temporal, made by hand as the product makes
 * them: TLS and a service token, refreshed until each closes, on the cluster.
 */
export async function temporalConnections(): Promise<{ connection: Connection; native: NativeConnection }> {
  const config = loadConfig(temporalSettings());
  const options = config.temporal.connection;
  const connection = await connectTemporal(config, 'test');
  const tokens = await serviceTokens(config, 'test');
  const native = await NativeConnection.connect({ ...options, ...(tokens && { apiKey: tokens.current() }) });
  if (tokens) {
    tokens.onRefresh((token) => {
      native
        .setApiKey(token)
        .catch((err: Error) => console.warn(`test: the refreshed token was not taken: ${err.message}`));
    });
    stopWithConnection(native, tokens);
  }
  return { connection, native };
}

/**
 * The build id of this run's workers: the run's one workflow bundle (TEST_WORKFLOW_BUNDLE), so that
 * every test file's worker is the same version, and no git checkout is needed.
 */
export function testBuildId(): string {
  // On the cluster (npm run test:cluster): the version its own worker made current.
  if (process.env.TEST_WORKER_BUILD_ID) return process.env.TEST_WORKER_BUILD_ID;
  const bundle = process.env.TEST_WORKFLOW_BUNDLE;
  return bundle ? `tests-${createHash('sha256').update(readFileSync(bundle)).digest('hex').slice(0, 12)}` : 'tests';
}

export async function startStack(
  opts: { pollIntervalMs?: number; pollMaxMs?: number; runtime?: RuntimeOptions; tracing?: Tracing } = {},
) {
  if (!runtimeInstalled) {
    // Activity failures that tests provoke on purpose are logged as warnings; keep errors only.
    Runtime.install(opts.runtime ?? { logger: new DefaultLogger('ERROR') });
    runtimeInstalled = true;
  }
  const pollIntervalMs = opts.pollIntervalMs ?? 3_600_000;
  // A quiet wallet's wait grows to a few intervals only, so that tests of polling stay short.
  const pollMaxMs = opts.pollMaxMs ?? pollIntervalMs * 4;
  const apiKey = `AK-TEST-${randomUUID().slice(0, 8)}`;
  const secretKey = `SK-TEST-${randomUUID()}`;
  const taskQueue = `test-${randomUUID()}`;
  // Payloads are encrypted as in a deployment: a key of this stack's own.
  const payloadKey = randomBytes(32).toString('base64');
  const claimsDir = mkdtempSync(join(tmpdir(), 'payflows-claims-'));
  const claimKey = randomBytes(32).toString('base64');
  const claims = new LocalClaimStore(claimsDir, { key: Buffer.from(claimKey, 'base64') });
  const reminders: Reminder[] = [];
  const stops: Parameters<typeof stopStack>[0] = [];
  // Everything the stack needs, set explicitly: the sandbox is reached as a real provider would
  // be, and Temporal is a server the worker did not start.
  const settings = {
    ...temporalSettings(),
    TEMPORAL_TASK_QUEUE: taskQueue,
    PROVIDER_API_KEY: apiKey,
    PROVIDER_SECRET_KEY: secretKey,
    PROVIDER_ACCOUNT_ID: SANDBOX_CREDENTIALS.accountId,
    INGRESS_MAX_BODY_BYTES: String(16 * 1024),
    WALLET_POLL_INTERVAL: `${pollIntervalMs}ms`,
    WALLET_POLL_MAX: `${pollMaxMs}ms`,
    PAYLOAD_ENCRYPTION_KEY: payloadKey,
    CLAIM_STORE_DIR: claimsDir,
    CLAIM_ENCRYPTION_KEY: claimKey,
    // A test's stop does not wait for activities that a test left hanging on purpose.
    WORKER_SHUTDOWN_GRACE: '1s',
    // The run's bundle is the version every test file's worker shares; this run's new server makes
    // it current (docs/deploying.md).
    WORKER_BUILD_ID: testBuildId(),
    WORKER_VERSION_BOOTSTRAP: 'on',
  };
  const stop = async () => {
    await stopStack(stops);
    rmSync(claimsDir, { recursive: true, force: true });
  };
  const stack = await startProductStack({
    settings,
    ports: 'ephemeral',
    sandbox: {},
    // The ingress's /health and /metrics, on their own port as INGRESS_OPS_PORT puts them.
    ingressOps: { healthIntervalMs: 500 },
    // A callback for a wallet not followed yet costs the ingress four calls to Temporal, and under
    // CI's load they took more than its 5 s (a 503 where a test asserts the 200 of an accepted one).
    ingressTemporalTimeoutMs: 30_000,
    codecServer: 'none',
    worker: () => ({
      claims,
      notifier: { remind: async (r) => void reminders.push(r) },
      workflowBundlePath: process.env.TEST_WORKFLOW_BUNDLE,
      ...(opts.tracing ? { tracing: opts.tracing } : {}),
    }),
    log: () => {},
    stops,
  }).catch(async (err: unknown) => {
    await stop();
    throw err;
  });
  const { client, config, provider, sandbox, sandboxUrl, ingressUrl, opsUrl } = stack;
  const { version, currentVersion } = stack.worker!;
  // A versioned worker gets no run until its version is current: the run's first worker makes it so.
  const versionOutcome = await currentVersion;
  if (versionOutcome && (versionOutcome.outcome === 'gave-up' || versionOutcome.outcome === 'left'))
    throw new Error(`the test worker would get no runs: ${describeOutcome(version!, versionOutcome)}`);
  const wallets = new WalletsClient(client, { taskQueue, pollIntervalMs, pollMaxMs });

  const { operator, op } = operatorCalls(sandboxUrl!);

  return {
    op,
    apiKey,
    secretKey,
    sandbox: sandbox!,
    sandboxUrl: sandboxUrl!,
    ingressUrl,
    /** The ingress's operations port: /health and /metrics. */
    opsUrl: opsUrl!,
    client,
    taskQueue,
    config,
    provider: provider!,
    wallets,
    operator,
    claims,
    claimsDir,
    payloadKey,
    /** The environment of a worker process for this stack (its own task queue: override TEMPORAL_TASK_QUEUE). */
    workerEnv: { ...stack.settings, ...settings },
    reminders,
    /** Short process durations: poll from 100 ms, reminders after 1 s, deadline 60 s. */
    timing: { pollInitialMs: 100, pollMaxMs: 500, reminderAfterMs: 1_000, deadlineMs: 60_000 },
    stop,
  };
}

export type Stack = Awaited<ReturnType<typeof startStack>>;

/**
 * Retries an assertion until it passes or the time is up; the last failure is rethrown. An
 * assert.ok in `fn` takes a message (the lint enforces it): without one, node reads and parses the
 * test's source to word every failure, which stalls the worker running in the test's process.
 * A minute by default: on a loaded machine one query can wait 30 s for a worker and time out, and
 * the try after it must still fit.
 */
export async function eventually<T>(fn: () => Promise<T> | T, timeoutMs = 60_000, everyMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, everyMs));
    }
  }
}
