import { loadClientConfigProfile, toClientOptions } from '@temporalio/envconfig';
import type { NativeConnectionOptions } from '@temporalio/worker';
import { z } from 'zod';
import { parseByteSize } from './byte-size.js';
import { parseDuration } from './duration.js';
import { accountId } from './provider/schemas/common.js';
import { plaintextProblem } from './temporal/plaintext.js';
import { LOG_LEVELS } from './telemetry/logger.js';

// Every setting the product reads from the environment, with a working default for the
// embedded stack. Parsed once; a bad value stops start-up with the variable's name. The Temporal
// connection is read as Temporal's SDKs document it (@temporalio/envconfig: TEMPORAL_ADDRESS,
// TEMPORAL_NAMESPACE, TEMPORAL_API_KEY, TEMPORAL_TLS_*, or a profile of TEMPORAL_CONFIG_FILE).
// Defaults meant for the embedded stack (the sandbox's published keys, a loopback callback URL, a
// payload key made on the spot) never apply to a real provider or a real Temporal server:
// src/required-settings.ts names what each process then needs.

const port = z.coerce.number({ error: 'must be a port number, 1 to 65535' }).int().min(1).max(65535);
// A base URL: scheme, host, optional port and path. No credentials, query or fragment: they would
// be signed but not sent as signed, or swallow the paths appended to it.
const url = z
  .url({ protocol: /^https?$/, error: 'must be an http:// or https:// address' })
  .refine((value) => {
    const parts = new URL(value);
    return !parts.username && !parts.password && !parts.search && !parts.hash;
  }, 'a base URL takes no user:password@, ?query or #fragment')
  .transform((u) => u.replace(/\/+$/, ''));
// parseDuration's own message quotes the value; a setting's error never does (see loadConfig).
const duration = z.string().transform((value, ctx) => {
  try {
    return parseDuration(value);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'is not a duration; use a positive one such as 500ms, 30s, 5m, 2h, 1d' });
    return z.NEVER;
  }
});
const nonEmpty = z.string().trim().min(1);
const byteSize = z.string().transform((value, ctx) => {
  try {
    return parseByteSize(value);
  } catch (err) {
    ctx.addIssue({ code: 'custom', message: (err as Error).message });
    return z.NEVER;
  }
});

const envSchema = z
  .object({
    TEMPORAL_TASK_QUEUE: nonEmpty.default('payflows'),
    TEMPORAL_CLI_PATH: nonEmpty.optional(),
    TEMPORAL_PORT: port.default(7233),
    TEMPORAL_UI_PORT: port.default(8233),
    TEMPORAL_DB_FILE: nonEmpty.default('.data/temporal.sqlite'),
    PROVIDER_BASE_URL: url.optional(),
    PROVIDER_API_KEY: nonEmpty.optional(),
    PROVIDER_SECRET_KEY: nonEmpty.optional(),
    /** The account those keys belong to: the parent in limits calculations (docs/provider-contract.md §4.6). */
    PROVIDER_ACCOUNT_ID: accountId.optional(),
    PROVIDER_TIMEOUT: duration.default(15_000),
    /** The longest answer read from the provider; a longer one fails the call (and is retried). */
    PROVIDER_MAX_ANSWER_BYTES: z.coerce
      .number()
      .int()
      .min(64 * 1024)
      .max(1024 * 1024 * 1024)
      .default(8 * 1024 * 1024),
    SANDBOX_PORT: port.default(4010),
    /** Loopback by default: the operator routes need no credentials. */
    SANDBOX_HOST: nonEmpty.default('127.0.0.1'),
    SANDBOX_STATE_FILE: nonEmpty.optional(),
    INGRESS_PORT: port.default(4020),
    /** /health and /metrics of the ingress, apart from its public callback port. */
    INGRESS_OPS_PORT: port.default(4021),
    /** Loopback by default; a container that Prometheus scrapes from outside sets 0.0.0.0. */
    INGRESS_OPS_HOST: nonEmpty.default('127.0.0.1'),
    INGRESS_PUBLIC_URL: url.optional(),
    /** Comma-separated secrets that callbacks may be signed with during a key rotation, newest first. */
    PROVIDER_CALLBACK_SECRETS: z.string().optional(),
    INGRESS_REQUEST_TIMEOUT: duration.default(10_000),
    INGRESS_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1_000_000).default(1_024),
    INGRESS_MAX_BODY_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .max(10 * 1024 * 1024)
      .default(64 * 1024),
    /** The wait between polls of a wallet after activity; it doubles while the wallet is quiet. */
    WALLET_POLL_INTERVAL: duration.default(60_000),
    /** The longest wait between polls of a quiet wallet: 16 polls a day once a wallet is quiet. */
    WALLET_POLL_MAX: duration.default(90 * 60_000),
    /** How often a wallet's ledger is compared with the provider's balances. */
    WALLET_RECONCILE_INTERVAL: duration.default(6 * 3_600_000),
    /** Where documents and personal values wait, by reference, to be sent (the claim store). */
    CLAIM_STORE_DIR: nonEmpty.default('.data/claims'),
    /** s3://bucket/prefix: the claim store on S3-compatible storage (AWS_* variables) instead of CLAIM_STORE_DIR. */
    CLAIM_STORE_URL: z
      .string()
      .regex(/^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/.*)?$/, 'an S3 address such as s3://my-bucket/claims')
      .optional(),
    /** Base64 of 32 random bytes: wraps the data key of every claim (envelope encryption). */
    CLAIM_ENCRYPTION_KEY: z
      .string()
      .refine(
        (v) => Buffer.from(v, 'base64').length === 32,
        'must be the base64 of 32 bytes (e.g. `openssl rand -base64 32`)',
      )
      .optional(),
    /** Comma-separated older claim keys, to read claims sealed before a rotation. */
    CLAIM_PREVIOUS_KEYS: z.string().optional(),
    /** Claims older than this are deleted by the retention sweep, whatever their process. */
    CLAIM_RETENTION: duration.default(30 * 86_400_000),
    CLAIM_SWEEP_INTERVAL: duration.default(3_600_000),
    PROCESS_POLL_INITIAL: duration.default(5_000),
    PROCESS_POLL_MAX: duration.default(900_000),
    PROCESS_REMINDER_AFTER: duration.default(86_400_000),
    PROCESS_DEADLINE: duration.default(14 * 86_400_000),
    PROCESS_STALL_AFTER: duration.default(30 * 86_400_000),
    KYC_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(5),
    /** Base64 of 32 random bytes: encrypts every payload before Temporal stores it. */
    PAYLOAD_ENCRYPTION_KEY: z
      .string()
      .refine(
        (v) => Buffer.from(v, 'base64').length === 32,
        'must be the base64 of 32 bytes (e.g. `openssl rand -base64 32`)',
      )
      .optional(),
    /** Comma-separated older keys, to read what was written before a rotation. */
    PAYLOAD_PREVIOUS_KEYS: z.string().optional(),
    /** Without PAYLOAD_ENCRYPTION_KEY, the embedded stack keeps a key of its own here. */
    PAYLOAD_KEY_FILE: nonEmpty.default('.data/payload.key'),
    CODEC_SERVER_PORT: port.default(4030),
    /** Loopback by default: the codec server decrypts payloads for whoever may call it. */
    CODEC_SERVER_HOST: nonEmpty.default('127.0.0.1'),
    /** A bearer token every caller of the codec server must present (required off loopback). */
    CODEC_SERVER_TOKEN: z.string().min(16, 'must be at least 16 characters (e.g. `openssl rand -hex 32`)').optional(),
    /** Comma-separated origins of the Web UI; default: the embedded UI's. */
    CODEC_SERVER_ALLOWED_ORIGINS: z.string().optional(),
    /** Comma-separated host:port names the codec server answers to; default: loopback names of its port. */
    CODEC_SERVER_ALLOWED_HOSTS: z.string().optional(),
    LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
    /** The worker's Prometheus endpoint (the SDK's metrics and the product's); off when unset. */
    WORKER_METRICS_PORT: port.optional(),
    /** Loopback by default; a container that Prometheus scrapes from outside sets 0.0.0.0. */
    WORKER_METRICS_HOST: nonEmpty.default('127.0.0.1'),
    /** How long a stopping worker lets running activities finish (SIGTERM drains it). */
    WORKER_SHUTDOWN_GRACE: duration.default(30_000),
    WORKER_MAX_CONCURRENT_ACTIVITIES: z.coerce.number().int().min(1).max(10_000).optional(),
    WORKER_MAX_CONCURRENT_WORKFLOW_TASKS: z.coerce.number().int().min(2).max(10_000).optional(),
    WORKER_MAX_CACHED_WORKFLOWS: z.coerce.number().int().min(0).max(1_000_000).optional(),
    /** The worker's memory, when its container's cgroup limit does not say it: sizes the workflow cache. */
    WORKER_MEMORY: byteSize.optional(),
    /** The worker's `GET /health` for orchestrators; off when unset. */
    WORKER_HEALTH_PORT: port.optional(),
    WORKER_HEALTH_HOST: nonEmpty.default('127.0.0.1'),
    /** How long a stopping ingress waits for the callbacks in flight. */
    INGRESS_SHUTDOWN_GRACE: duration.default(10_000),
    /** Where traces go (OTLP over HTTP, read by the exporter itself); tracing is off when unset. */
    OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
  })
  .superRefine((settings, ctx) => {
    if (settings.INGRESS_OPS_PORT === settings.INGRESS_PORT) {
      ctx.addIssue({
        code: 'custom',
        path: ['INGRESS_OPS_PORT'],
        message: `must differ from INGRESS_PORT (${settings.INGRESS_PORT}): /health and /metrics stay off the public callback port`,
      });
    }
    // The sweep deletes claims by age: it must not reach a claim whose process may still send it.
    if (settings.CLAIM_RETENTION <= settings.PROCESS_DEADLINE) {
      ctx.addIssue({
        code: 'custom',
        path: ['CLAIM_RETENTION'],
        message: `must be longer than PROCESS_DEADLINE (${settings.PROCESS_DEADLINE} ms): the retention sweep would delete claims that a running process may still send`,
      });
    }
  });

export type Env = z.input<typeof envSchema>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function loadConfig(env: Record<string, string | undefined> = process.env) {
  // Empty strings mean "unset", as a shell's `VAR=` would suggest.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    // The variable and what is wrong with it, never its value: a bad value may still hold a secret
    // (a key, a token, credentials in a URL), and this message ends up in container logs.
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration; fix these environment variables:\n${lines.join('\n')}`);
  }
  const settings = parsed.data;
  const temporal = temporalProfile(env, settings.TEMPORAL_PORT);
  const sandbox = settings.PROVIDER_BASE_URL === undefined;
  return {
    temporal: {
      /** Unset means: start the embedded dev server (npm run dev) or expect it on localhost. */
      address: temporal.address,
      embedded: temporal.address === undefined,
      namespace: temporal.namespace,
      /** For Connection.connect and NativeConnection.connect: address, TLS, API key, gRPC metadata. */
      connection: temporal.connection,
      taskQueue: settings.TEMPORAL_TASK_QUEUE,
      cliPath: settings.TEMPORAL_CLI_PATH,
      port: settings.TEMPORAL_PORT,
      uiPort: settings.TEMPORAL_UI_PORT,
      dbFile: settings.TEMPORAL_DB_FILE,
    },
    provider: {
      baseUrl: settings.PROVIDER_BASE_URL ?? `http://127.0.0.1:${settings.SANDBOX_PORT}`,
      usesSandbox: sandbox,
      // The sandbox's published credentials, for the sandbox only.
      apiKey: settings.PROVIDER_API_KEY ?? (sandbox ? SANDBOX_CREDENTIALS.apiKey : undefined),
      secretKey: settings.PROVIDER_SECRET_KEY ?? (sandbox ? SANDBOX_CREDENTIALS.secretKey : undefined),
      accountId: settings.PROVIDER_ACCOUNT_ID ?? (sandbox ? SANDBOX_CREDENTIALS.accountId : undefined),
      timeoutMs: settings.PROVIDER_TIMEOUT,
      maxAnswerBytes: settings.PROVIDER_MAX_ANSWER_BYTES,
    },
    sandbox: { port: settings.SANDBOX_PORT, host: settings.SANDBOX_HOST, stateFile: settings.SANDBOX_STATE_FILE },
    ingress: {
      port: settings.INGRESS_PORT,
      /** /health and /metrics (src/ingress/ops.ts). */
      ops: { host: settings.INGRESS_OPS_HOST, port: settings.INGRESS_OPS_PORT },
      /** Where the provider sends callbacks; a loopback address only for the sandbox. */
      publicUrl: settings.INGRESS_PUBLIC_URL ?? (sandbox ? `http://127.0.0.1:${settings.INGRESS_PORT}` : undefined),
      maxBodyBytes: settings.INGRESS_MAX_BODY_BYTES,
      requestTimeoutMs: settings.INGRESS_REQUEST_TIMEOUT,
      maxConnections: settings.INGRESS_MAX_CONNECTIONS,
      /**
       * Newest first; the provider's secret key alone outside a rotation. The sandbox's published
       * secret only for the embedded stack: with it, anyone could signal a real cluster's workflows.
       */
      callbackSecrets:
        list(settings.PROVIDER_CALLBACK_SECRETS) ??
        (settings.PROVIDER_SECRET_KEY
          ? [settings.PROVIDER_SECRET_KEY]
          : sandbox && temporal.address === undefined
            ? [SANDBOX_CREDENTIALS.secretKey]
            : []),
      shutdownGraceMs: settings.INGRESS_SHUTDOWN_GRACE,
    },
    worker: {
      shutdownGraceMs: settings.WORKER_SHUTDOWN_GRACE,
      maxConcurrentActivities: settings.WORKER_MAX_CONCURRENT_ACTIVITIES,
      maxConcurrentWorkflowTasks: settings.WORKER_MAX_CONCURRENT_WORKFLOW_TASKS,
      maxCachedWorkflows: settings.WORKER_MAX_CACHED_WORKFLOWS,
      memoryBytes: settings.WORKER_MEMORY,
      health:
        settings.WORKER_HEALTH_PORT === undefined
          ? undefined
          : { host: settings.WORKER_HEALTH_HOST, port: settings.WORKER_HEALTH_PORT },
    },
    wallet: {
      pollIntervalMs: settings.WALLET_POLL_INTERVAL,
      pollMaxMs: settings.WALLET_POLL_MAX,
      reconcileIntervalMs: settings.WALLET_RECONCILE_INTERVAL,
    },
    claims: {
      dir: settings.CLAIM_STORE_DIR,
      url: settings.CLAIM_STORE_URL,
      key: settings.CLAIM_ENCRYPTION_KEY,
      previousKeys: (settings.CLAIM_PREVIOUS_KEYS ?? '').split(',').filter(Boolean),
      /** Only the embedded stack lets the store keep a claim key of its own beside its files. */
      mayKeepOwnKey: temporal.address === undefined,
      retentionMs: settings.CLAIM_RETENTION,
      sweepIntervalMs: settings.CLAIM_SWEEP_INTERVAL,
    },
    payloads: {
      key: settings.PAYLOAD_ENCRYPTION_KEY,
      previousKeys: (settings.PAYLOAD_PREVIOUS_KEYS ?? '').split(',').filter(Boolean),
      keyFile: settings.PAYLOAD_KEY_FILE,
      /** Only the embedded stack makes a key of its own; elsewhere the key file must already exist. */
      mayCreateKeyFile: temporal.address === undefined,
      codecServerPort: settings.CODEC_SERVER_PORT,
    },
    codecServer: {
      host: settings.CODEC_SERVER_HOST,
      port: settings.CODEC_SERVER_PORT,
      token: settings.CODEC_SERVER_TOKEN,
      allowedOrigins: list(settings.CODEC_SERVER_ALLOWED_ORIGINS) ?? [
        `http://127.0.0.1:${settings.TEMPORAL_UI_PORT}`,
        `http://localhost:${settings.TEMPORAL_UI_PORT}`,
      ],
      allowedHosts: (
        list(settings.CODEC_SERVER_ALLOWED_HOSTS) ?? [
          `127.0.0.1:${settings.CODEC_SERVER_PORT}`,
          `localhost:${settings.CODEC_SERVER_PORT}`,
        ]
      ).map((h) => h.toLowerCase()),
    },
    telemetry: {
      logLevel: settings.LOG_LEVEL,
      otlpEndpoint: settings.OTEL_EXPORTER_OTLP_ENDPOINT,
      workerMetrics:
        settings.WORKER_METRICS_PORT === undefined
          ? undefined
          : `${settings.WORKER_METRICS_HOST}:${settings.WORKER_METRICS_PORT}`,
    },
    processes: {
      timing: {
        pollInitialMs: settings.PROCESS_POLL_INITIAL,
        pollMaxMs: settings.PROCESS_POLL_MAX,
        reminderAfterMs: settings.PROCESS_REMINDER_AFTER,
        deadlineMs: settings.PROCESS_DEADLINE,
        stallAfterMs: settings.PROCESS_STALL_AFTER,
      },
      kycMaxAttempts: settings.KYC_MAX_ATTEMPTS,
    },
  };
}

export type Config = ReturnType<typeof loadConfig>;

/** The sandbox's published master credentials (src/sandbox): never used against a real provider. */
export const SANDBOX_CREDENTIALS = {
  apiKey: 'AK-SANDBOX-MASTER',
  secretKey: 'SK-SANDBOX-MASTER-SECRET-0001',
  accountId: 'AC_SANDBOXMASTER',
} as const;

/**
 * The Temporal connection from the environment and the profile file, as @temporalio/envconfig
 * reads them; an address from either means a server this process did not start.
 */
function temporalProfile(
  env: Record<string, string | undefined>,
  embeddedPort: number,
): { address: string | undefined; namespace: string; connection: NativeConnectionOptions } {
  const vars = Object.fromEntries(
    Object.entries(env).filter((kv): kv is [string, string] => kv[1] !== undefined && kv[1] !== ''),
  );
  let profile;
  try {
    profile = loadClientConfigProfile({ overrideEnvVars: vars });
  } catch (err) {
    const source = vars.TEMPORAL_CONFIG_FILE
      ? `TEMPORAL_CONFIG_FILE=${vars.TEMPORAL_CONFIG_FILE}`
      : 'the Temporal profile file';
    throw new ConfigError(
      `Invalid configuration: ${source}${vars.TEMPORAL_PROFILE ? ` (profile ${vars.TEMPORAL_PROFILE})` : ''} could not be read: ${(err as Error).message}`,
    );
  }
  const address = profile.address?.trim() || undefined;
  const { connectionOptions } = toClientOptions({ ...profile, address: address ?? `127.0.0.1:${embeddedPort}` });
  const problem = plaintextProblem(
    address ?? `127.0.0.1:${embeddedPort}`,
    connectionOptions,
    profile.tls?.disabled === true,
  );
  if (problem) throw new ConfigError(`Invalid configuration: ${problem}.`);
  return { address, namespace: profile.namespace?.trim() || 'default', connection: connectionOptions };
}

/** A comma-separated list, trimmed; undefined when unset. */
function list(value: string | undefined): string[] | undefined {
  return value === undefined
    ? undefined
    : value
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean);
}

/** The Temporal address the processes connect to: the configured one, or the embedded server's. */
export function temporalAddress(config: Config): string {
  return config.temporal.connection.address ?? `127.0.0.1:${config.temporal.port}`;
}
