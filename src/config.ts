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
/** A duration with a floor: the wallet's, as its input schema asks (workflows/wallet/inputs.schema.ts). */
const atLeast = (ms: number, what: string) => duration.refine((value) => value >= ms, `must be ${what}`);
const nonEmpty = z.string().trim().min(1);
// What Temporal 1.29 takes as a Worker Deployment's name and a build id: no '.' or ':' in the name
// (they join the two into a version string), neither starting with '__' (the server's own).
const deploymentName = z
  .string()
  .regex(/^(?!__)[^.:\s]{1,200}$/, "must be 1 to 200 characters without '.', ':' or spaces, not starting with '__'");
const buildId = z
  .string()
  .regex(/^(?!__)\S{1,200}$/, "must be 1 to 200 characters without spaces, not starting with '__'");
const byteSize = z.string().transform((value, ctx) => {
  try {
    return parseByteSize(value);
  } catch (err) {
    ctx.addIssue({ code: 'custom', message: (err as Error).message });
    return z.NEVER;
  }
});

export const envSchema = z
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
    /** Where the callback port listens; unset: loopback with the sandbox's published secret, else every interface. */
    INGRESS_HOST: nonEmpty.optional(),
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
    WALLET_POLL_INTERVAL: atLeast(100, 'at least 100ms').default(60_000),
    /** The longest wait between polls of a quiet wallet: 16 polls a day once a wallet is quiet. */
    WALLET_POLL_MAX: atLeast(100, 'at least 100ms').default(90 * 60_000),
    /** How often a wallet's ledger is compared with the provider's balances. */
    WALLET_RECONCILE_INTERVAL: atLeast(1_000, 'at least 1s').default(6 * 3_600_000),
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
    /** Worker Versioning (docs/deploying.md); `off` for a server without Worker Deployments. */
    WORKER_VERSIONING: z.enum(['on', 'off'], { error: 'must be `on` or `off`' }).default('on'),
    WORKER_DEPLOYMENT_NAME: deploymentName.default('payflows'),
    /** This build's id; unset: the one `npm run build` wrote, else (embedded only) the checkout's (worker/build-id.ts). */
    WORKER_BUILD_ID: buildId.optional(),
    /** Whether a deployment's very first version makes itself current (worker/current-version.ts). */
    WORKER_VERSION_BOOTSTRAP: z.enum(['on', 'off'], { error: 'must be `on` or `off`' }).optional(),
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

/** A setting as docs/configuration.md describes it. */
export interface SettingReference {
  default: string;
  meaning: string;
}

/**
 * What each setting means and its default, as docs/configuration.md shows them: that file's table
 * is generated from this one (`npm run docs:config`), and `npm run lint` fails when it is stale.
 */
export const SETTINGS_REFERENCE = {
  TEMPORAL_TASK_QUEUE: {
    default: '`payflows`',
    meaning: 'the task queue every worker polls and every client starts processes on',
  },
  TEMPORAL_CLI_PATH: {
    default: 'unset',
    meaning: 'a `temporal` binary for the embedded server; otherwise found or built (`docs/running-locally.md`)',
  },
  TEMPORAL_PORT: { default: '`7233`', meaning: "the embedded server's gRPC port" },
  TEMPORAL_UI_PORT: { default: '`8233`', meaning: "the embedded server's Web UI port" },
  TEMPORAL_DB_FILE: { default: '`.data/temporal.sqlite`', meaning: "the embedded server's state" },
  PROVIDER_BASE_URL: { default: 'unset: the sandbox', meaning: "the real provider's base address" },
  PROVIDER_API_KEY: {
    default: "the sandbox's master credentials, only while `PROVIDER_BASE_URL` is unset",
    meaning: 'signature auth: the API key',
  },
  PROVIDER_SECRET_KEY: {
    default: "the sandbox's master credentials, only while `PROVIDER_BASE_URL` is unset",
    meaning: 'signature auth: the secret; it also verifies callbacks',
  },
  PROVIDER_ACCOUNT_ID: {
    default: '`AC_SANDBOXMASTER`, only while `PROVIDER_BASE_URL` is unset',
    meaning: 'the account of `PROVIDER_API_KEY`: the parent in limits calculations',
  },
  PROVIDER_TIMEOUT: {
    default: '`15s`',
    meaning: "connect, headers and body timeouts of each provider call (below the activities' 1 minute)",
  },
  PROVIDER_MAX_ANSWER_BYTES: {
    default: '`8388608` (8 MiB)',
    meaning:
      "the longest answer read from the provider; a longer one fails the call as `AnswerTooLargeError`, naming the call and the limit, and is retried (raise it and restart the workers if the provider's answers are that large)",
  },
  SANDBOX_PORT: { default: '`4010`', meaning: "the sandbox's port" },
  SANDBOX_HOST: {
    default: '`127.0.0.1`',
    meaning: 'where the sandbox listens; loopback because its operator routes need no credentials',
  },
  SANDBOX_STATE_FILE: {
    default: '`.data/sandbox.json`',
    meaning: 'where the sandbox keeps its state across restarts (mode 0600: it holds secret keys and SSNs)',
  },
  INGRESS_PORT: { default: '`4020`', meaning: "the ingress's public callback port (`/callbacks`)" },
  INGRESS_HOST: {
    default:
      "`127.0.0.1` while any callback secret is the sandbox's published one (`npm run dev`, `npm run cluster`); otherwise `0.0.0.0`",
    meaning:
      "where the callback port listens (`npm run ingress` and `npm run dev`'s). With the sandbox's published secret anyone who reaches it could sign a deposit: set it off loopback only where nobody else reaches it (a container whose port is published on loopback, as docker-compose.yml does)",
  },
  INGRESS_OPS_PORT: {
    default: '`4021`',
    meaning:
      "the ingress's operations port: `GET /health` (from a background check of Temporal) and `GET /metrics`, apart from the public callback port",
  },
  INGRESS_OPS_HOST: {
    default: '`127.0.0.1`',
    meaning: 'where the operations port listens; `0.0.0.0` where Prometheus scrapes from another host or container',
  },
  INGRESS_PUBLIC_URL: {
    default: '`http://127.0.0.1:$INGRESS_PORT`, only while `PROVIDER_BASE_URL` is unset',
    meaning: 'how the provider reaches the ingress; wallets get `$INGRESS_PUBLIC_URL/callbacks`',
  },
  PROVIDER_CALLBACK_SECRETS: {
    default:
      "`PROVIDER_SECRET_KEY`; the sandbox's only with the embedded Temporal server: pointed at another (`TEMPORAL_ADDRESS` or a profile), the ingress refuses to start without one of the two",
    meaning:
      "comma-separated secrets that callbacks may be signed with, newest first, during a rotation of the provider's secret key",
  },
  INGRESS_REQUEST_TIMEOUT: {
    default: '`10s`',
    meaning:
      'longest time to receive a whole callback request; a slower sender gets 408 and its connection is closed (headers within 5 s at most)',
  },
  INGRESS_MAX_CONNECTIONS: {
    default: '`1024`',
    meaning: 'connections the ingress keeps open at once; more are refused',
  },
  INGRESS_MAX_BODY_BYTES: { default: '`65536`', meaning: 'larger callbacks get 413' },
  WALLET_POLL_INTERVAL: {
    default: '`1m`',
    meaning:
      "the wait between a wallet's polls for transactions whose callback was lost, after activity; it doubles after every poll that finds nothing",
  },
  WALLET_POLL_MAX: { default: '`90m`', meaning: 'the longest wait between polls of a quiet wallet (16 polls a day)' },
  WALLET_RECONCILE_INTERVAL: {
    default: '`6h`',
    meaning:
      "how often a wallet's workflow compares its ledger with the provider's balances (also on request: `wallets.reconcile(walletId)`)",
  },
  CLAIM_STORE_DIR: {
    default: '`.data/claims`',
    meaning: 'where documents and personal values wait, by reference, to be sent (worker and clients must share it)',
  },
  CLAIM_STORE_URL: {
    default: 'unset: the local store',
    meaning:
      '`s3://bucket/prefix`: the claim store on S3-compatible storage, with `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_REGION` (default `us-east-1`) and an endpoint override `AWS_ENDPOINT_URL_S3` (path-style addressing, as S3-compatible servers expect); needs `CLAIM_ENCRYPTION_KEY`',
  },
  CLAIM_ENCRYPTION_KEY: {
    default:
      "unset: the embedded stack's store keeps a key of its own; against another Temporal server workers and clients refuse to start without it",
    meaning:
      "base64 of 32 bytes (`openssl rand -base64 32`): wraps each claim's data key; the same for every worker and client",
  },
  CLAIM_PREVIOUS_KEYS: {
    default: 'none',
    meaning:
      'comma-separated claim keys that are read but not written with: the next key during the first rollout of a rotation, the old one after the second (`docs/security.md`)',
  },
  CLAIM_RETENTION: {
    default: '`30d`',
    meaning:
      'claims older than this are deleted by the retention Schedule; it must be longer than `PROCESS_DEADLINE`, so that no claim a running process may still send is swept',
  },
  CLAIM_SWEEP_INTERVAL: { default: '`1h`', meaning: 'how often the retention Schedule runs' },
  PROCESS_POLL_INITIAL: { default: '`5s`', meaning: "a process's first wait between two looks at the provider" },
  PROCESS_POLL_MAX: {
    default: '`15m`',
    meaning: 'the ceiling that wait doubles up to (15 minutes keeps a 14-day wait near 14,000 history events)',
  },
  PROCESS_REMINDER_AFTER: { default: '`1d`', meaning: 'quiet time before an end user who owes input is reminded' },
  PROCESS_DEADLINE: { default: '`14d`', meaning: 'how long a process waits for the end user in all' },
  PROCESS_STALL_AFTER: {
    default: '`30d`',
    meaning:
      'how long one wait on the provider may last; then the process fails as `ProviderStalled` with a message for the operator (restart it once the provider has moved), instead of growing its history without end',
  },
  KYC_MAX_ATTEMPTS: { default: '`5`', meaning: 'submissions per profile field before KYC gives up on it' },
  PAYLOAD_ENCRYPTION_KEY: {
    default:
      'unset: the embedded stack makes a key once in `PAYLOAD_KEY_FILE` (`.data/payload.key`); against another Temporal server that file is read but never made',
    meaning:
      'base64 of 32 bytes (`openssl rand -base64 32`); the same for every worker, ingress, client and codec server of a deployment',
  },
  PAYLOAD_PREVIOUS_KEYS: {
    default: 'none',
    meaning:
      'comma-separated payload keys that are read but not written with: the next key during the first rollout of a rotation, the old one after the second (`docs/security.md`)',
  },
  PAYLOAD_KEY_FILE: {
    default: '`.data/payload.key`',
    meaning:
      'without `PAYLOAD_ENCRYPTION_KEY`, the embedded stack keeps a key of its own here; against another Temporal server it is read but never made',
  },
  CODEC_SERVER_PORT: {
    default: '`4030`',
    meaning: "the codec server's port (`npm run dev`'s, or `npm run codec-server`)",
  },
  CODEC_SERVER_HOST: {
    default: '`127.0.0.1`',
    meaning: 'where the codec server listens; loopback because it decrypts payloads for whoever may call it',
  },
  CODEC_SERVER_TOKEN: {
    default: "unset: only `npm run dev`'s codec server may run without it",
    meaning:
      "the credential every caller of the codec server presents: `Authorization: Bearer …` (the CLI's `--codec-auth`), or a browser's session from signing in at `/session` (the Web UI with `TEMPORAL_CODEC_INCLUDE_CREDENTIALS=true`); `openssl rand -hex 32`",
  },
  CODEC_SERVER_ALLOWED_ORIGINS: {
    default: "the embedded UI's (`http://127.0.0.1:$TEMPORAL_UI_PORT`, `http://localhost:…`)",
    meaning: 'comma-separated origins of the Web UI',
  },
  CODEC_SERVER_ALLOWED_HOSTS: {
    default: '`127.0.0.1:$CODEC_SERVER_PORT`, `localhost:…`',
    meaning:
      "comma-separated `host:port` names the codec server answers to (the name the operator's browser uses); any other `Host` is refused, which stops a DNS-rebinding page",
  },
  LOG_LEVEL: {
    default: '`info`',
    meaning: '`trace`, `debug`, `info`, `warn`, `error`, `fatal` or `silent`, for every process',
  },
  WORKER_METRICS_PORT: {
    default: 'unset: off (`npm run dev`: 9464)',
    meaning: "the worker's Prometheus endpoint, `/metrics`",
  },
  WORKER_METRICS_HOST: {
    default: '`127.0.0.1`',
    meaning: 'where that endpoint listens; `0.0.0.0` where Prometheus scrapes from another host or container',
  },
  WORKER_SHUTDOWN_GRACE: {
    default: '`30s`',
    meaning:
      "on SIGTERM (or SIGINT) the worker takes no new task and lets running activities finish for this long; then they are cancelled, and 5 s later the worker exits. Set the orchestrator's stop timeout above it (compose's `stop_grace_period`)",
  },
  WORKER_MAX_CONCURRENT_ACTIVITIES: { default: "the SDK's (100)", meaning: 'activities a worker runs at once' },
  WORKER_MAX_CONCURRENT_WORKFLOW_TASKS: { default: "the SDK's (40)", meaning: 'workflow tasks a worker runs at once' },
  WORKER_MAX_CACHED_WORKFLOWS: {
    default: "from the worker's memory (`WORKER_MEMORY`)",
    meaning: "workflows kept in a worker's cache (`docs/capacity.md`)",
  },
  WORKER_MEMORY: {
    default: "unset: the container's cgroup limit",
    meaning:
      "the worker's memory (`512Mi`, `1Gi`); with the heap (`NODE_OPTIONS=--max-old-space-size`, 640 MiB in compose and the image) it sizes the workflow cache, printed at start (`docs/capacity.md`)",
  },
  WORKER_HEALTH_PORT: {
    default: 'unset: off (the image: 9470)',
    meaning:
      'the worker\'s `GET /health` for orchestrators: 200 `{"status":"ok","state":"RUNNING","temporal":"connected"}` while it polls and Temporal answers, 503 with the reason otherwise (draining, stopped, Temporal unreachable: no answer within 2 s)',
  },
  WORKER_HEALTH_HOST: { default: '`127.0.0.1`', meaning: "where the worker's `/health` listens" },
  WORKER_VERSIONING: {
    default: '`on`',
    meaning:
      'the worker runs as a version of a Worker Deployment: processes pinned to the version they started on, wallets moving to the current one (`docs/deploying.md`); `off` for a Temporal server without Worker Deployments (before 1.28), the worker then runs unversioned',
  },
  WORKER_DEPLOYMENT_NAME: {
    default: '`payflows`',
    meaning: "the Worker Deployment every worker of this product joins (no '.' or ':')",
  },
  WORKER_BUILD_ID: {
    default:
      "the id `npm run build` wrote (the image's `WORKER_BUILD_ID` build argument, else the checkout's commit or the bundle's hash); on the embedded server only, else the checkout's commit (`<commit>-dirty-<hash>` when modified); otherwise required",
    meaning:
      "this worker's version in the deployment, printed at start; workers of the same code share it, a changed workflow needs a new one (`docs/deploying.md`)",
  },
  WORKER_VERSION_BOOTSTRAP: {
    default: 'on with the embedded server, off otherwise (`npm run cluster` and compose set `on`)',
    meaning:
      "`on`: a deployment's very first version makes itself current — only if no current version was ever set (unversioned included), nothing ramps, no other version is registered and no unversioned worker polls the task queue; `off`: only an operator changes it (`docs/deploying.md`)",
  },
  INGRESS_SHUTDOWN_GRACE: {
    default: '`10s`',
    meaning:
      'on SIGTERM the ingress stops accepting connections and answers the callbacks in flight for at most this long (a request on a kept-alive connection meanwhile gets 503, and the provider resends it)',
  },
  OTEL_EXPORTER_OTLP_ENDPOINT: {
    default: 'unset: no traces leave the process',
    meaning: 'an OTLP/HTTP collector for traces (the exporter also reads the other `OTEL_EXPORTER_OTLP_*` variables)',
  },
} satisfies Record<keyof Env, SettingReference>;

/** Variables read by Temporal's envconfig, the S3 client and the trace exporter rather than by the schema above. */
export const LIBRARY_SETTINGS_REFERENCE: Record<string, SettingReference> = {
  TEMPORAL_ADDRESS: {
    default: 'unset: `npm run dev` starts the embedded server',
    meaning: 'an existing Temporal frontend, `host:port` (or from the profile file)',
  },
  TEMPORAL_NAMESPACE: { default: '`default`', meaning: 'the namespace (or from the profile file)' },
  TEMPORAL_API_KEY: { default: 'unset', meaning: "Temporal Cloud's API key (needs TLS)" },
  TEMPORAL_TLS: {
    default: 'on for an API key or client certificates',
    meaning:
      '`true` or `false` (or `1`/`0`, in any case); any other spelling is refused. A server off loopback needs one said',
  },
  'TEMPORAL_TLS_CLIENT_CERT_PATH, TEMPORAL_TLS_CLIENT_KEY_PATH, TEMPORAL_TLS_SERVER_CA_CERT_PATH': {
    default: 'unset',
    meaning: 'mTLS certificates (each also as `…_DATA`), with `TEMPORAL_TLS_SERVER_NAME`',
  },
  'TEMPORAL_PROFILE, TEMPORAL_CONFIG_FILE': {
    default: '`~/.config/temporalio/temporal.toml`',
    meaning: 'a profile of the TOML file; the environment wins over the file',
  },
  'TEMPORAL_GRPC_META_*': {
    default: 'unset',
    meaning:
      'gRPC metadata sent with every call; a credential (`authorization`, a name with key, token, secret…, a `Bearer` value) needs TLS, as an API key does',
  },
  'AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY': {
    default: 'unset',
    meaning: 'credentials of the S3 claim store (`CLAIM_STORE_URL`)',
  },
  AWS_REGION: { default: '`AWS_DEFAULT_REGION`, else `us-east-1`', meaning: "the S3 claim store's region" },
  AWS_ENDPOINT_URL_S3: {
    default: 'unset',
    meaning: 'an S3-compatible endpoint (path-style addressing, as S3-compatible servers expect)',
  },
  'OTEL_EXPORTER_OTLP_*': { default: 'unset', meaning: 'the trace exporter reads the other OTLP variables itself' },
};

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
  /**
   * Newest first; the provider's secret key alone outside a rotation. The sandbox's published
   * secret only for the embedded stack: with it, anyone could signal a real cluster's workflows.
   */
  const callbackSecrets =
    list(settings.PROVIDER_CALLBACK_SECRETS) ??
    (settings.PROVIDER_SECRET_KEY
      ? [settings.PROVIDER_SECRET_KEY]
      : sandbox && temporal.address === undefined
        ? [SANDBOX_CREDENTIALS.secretKey]
        : []);
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
      host: ingressHost(settings.INGRESS_HOST, callbackSecrets),
      port: settings.INGRESS_PORT,
      /** /health and /metrics (src/ingress/ops.ts). */
      ops: { host: settings.INGRESS_OPS_HOST, port: settings.INGRESS_OPS_PORT },
      /** Where the provider sends callbacks; a loopback address only for the sandbox. */
      publicUrl: settings.INGRESS_PUBLIC_URL ?? (sandbox ? `http://127.0.0.1:${settings.INGRESS_PORT}` : undefined),
      maxBodyBytes: settings.INGRESS_MAX_BODY_BYTES,
      requestTimeoutMs: settings.INGRESS_REQUEST_TIMEOUT,
      maxConnections: settings.INGRESS_MAX_CONNECTIONS,
      callbackSecrets,
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
      /** Off: the worker runs unversioned. The build id, when unset, is found at start (worker/build-id.ts). */
      versioning: {
        enabled: settings.WORKER_VERSIONING === 'on',
        deploymentName: settings.WORKER_DEPLOYMENT_NAME,
        buildId: settings.WORKER_BUILD_ID,
        /** Against a cluster someone runs, only said explicitly: see WORKER_VERSION_BOOTSTRAP. */
        bootstrap: (settings.WORKER_VERSION_BOOTSTRAP ?? (temporal.address === undefined ? 'on' : 'off')) === 'on',
      },
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
  // envconfig takes only `1` and `true` as true and anything else as false, so `TRUE` or `yes`
  // would turn TLS off as if asked for by name. Read strictly here, and hand envconfig what was meant.
  if (vars.TEMPORAL_TLS !== undefined) {
    const said = strictBoolean(vars.TEMPORAL_TLS);
    if (said === undefined)
      throw new ConfigError(
        'Invalid configuration; fix these environment variables:\n  TEMPORAL_TLS: must be `true` or `false` (or `1` or `0`, in any case); unset it to let TLS follow from TEMPORAL_API_KEY or the client certificates',
      );
    vars.TEMPORAL_TLS = said ? 'true' : 'false';
  }
  let profile;
  try {
    profile = loadClientConfigProfile({ overrideEnvVars: vars });
  } catch (err) {
    const source = vars.TEMPORAL_CONFIG_FILE
      ? `TEMPORAL_CONFIG_FILE=${vars.TEMPORAL_CONFIG_FILE}`
      : 'the Temporal profile file';
    throw new ConfigError(
      `Invalid configuration: ${source}${vars.TEMPORAL_PROFILE ? ` (profile ${vars.TEMPORAL_PROFILE})` : ''} could not be read: ${profileFileProblem(err)}`,
    );
  }
  const address = profile.address?.trim() || undefined;
  const { connectionOptions } = toClientOptions({ ...profile, address: address ?? `127.0.0.1:${embeddedPort}` });
  // TEMPORAL_TLS (already strict) overrides the profile's `disabled`; only `true` there turns TLS off.
  const problem = plaintextProblem(
    address ?? `127.0.0.1:${embeddedPort}`,
    connectionOptions,
    profile.tls?.disabled === true,
    (key) => metadataVariable(vars, key) ?? `the profile's grpc_meta \`${key}\``,
  );
  if (problem) throw new ConfigError(`Invalid configuration: ${problem}.`);
  return { address, namespace: profile.namespace?.trim() || 'default', connection: connectionOptions };
}

// What smol-toml (envconfig's parser) says is wrong, as it words it: only these are repeated, since
// its message goes on to quote the offending lines, which may hold an api_key or a client_key_data.
const TOML_PROBLEMS = new Set([
  'control characters are not allowed in comments',
  'control characters are not allowed in strings',
  'document contains an unsafe property',
  'document contains excessively nested structures. aborting.',
  'each key-value declaration must be followed by an end-of-line',
  'expected comma or end of structure',
  'expected end of table array declaration',
  'illegal character in key',
  'illegal character in numeric literal',
  'illegal empty bare key',
  'illegal leading zero',
  'illegal quoted key: multiline strings are not allowed',
  'illegal underscore',
  'incomplete key-value: cannot find end of key',
  'integer value cannot be represented losslessly',
  'invalid date',
  'invalid date-time: date part is malformed',
  'invalid date-time: time part is malformed',
  'invalid escape: only line-ending whitespace may be escaped',
  'invalid non-hex character in unicode escape',
  'invalid unicode escape',
  'invalid value',
  'trying to redefine an already defined table or value',
  'trying to redefine an already defined value',
  'unexpected end of key',
  'unfinished array',
  'unfinished numeric value',
  'unfinished string',
  'unfinished table',
  'unrecognised escape sequence',
]);

/** Why the profile file could not be read, without a line of it: the kind of error and where. */
function profileFileProblem(err: unknown): string {
  const { message, line, column, code } = (err ?? {}) as {
    message?: unknown;
    line?: unknown;
    column?: unknown;
    code?: unknown;
  };
  if (typeof line === 'number' && typeof message === 'string') {
    const kind = /^Invalid TOML document: ([^\n]*)/.exec(message)?.[1];
    const said = kind !== undefined && TOML_PROBLEMS.has(kind) ? ` (${kind})` : '';
    return `it is not valid TOML${said} at line ${line}${typeof column === 'number' ? `, column ${column}` : ''}; fix that line of the file`;
  }
  // A file that cannot be opened: the system's code (ENOENT, EACCES, EISDIR), its path already named.
  if (typeof code === 'string') return `${code}; check that the file exists and this process may read it`;
  // envconfig's own (a profile not found, a certificate given both as a path and as data): names, no values.
  return typeof message === 'string' ? message : String(err);
}

/** `true`, `false`, `1` or `0`, in any case and trimmed; undefined for anything else. */
function strictBoolean(value: string): boolean | undefined {
  const said = value.trim().toLowerCase();
  return said === 'true' || said === '1' ? true : said === 'false' || said === '0' ? false : undefined;
}

/** The TEMPORAL_GRPC_META_* variable that set a metadata key (envconfig lowers it and turns `_` into `-`). */
function metadataVariable(vars: Record<string, string>, key: string): string | undefined {
  const prefix = 'TEMPORAL_GRPC_META_';
  const same = (name: string) => name.toLowerCase().replaceAll('_', '-');
  return Object.keys(vars).find((name) => name.startsWith(prefix) && same(name.slice(prefix.length)) === same(key));
}

/**
 * Where the callback port listens. With the sandbox's published secret among the callback secrets,
 * anyone who reaches the ingress can sign a deposit: loopback then (the sandbox calls back there).
 * Otherwise every interface, where the provider must reach it. An address set by name is taken: in a
 * container the interfaces are the container's, and what is published decides who reaches them
 * (docker-compose.yml publishes on loopback unless told otherwise).
 */
function ingressHost(configured: string | undefined, callbackSecrets: string[]): string {
  const published = callbackSecrets.includes(SANDBOX_CREDENTIALS.secretKey);
  return configured ?? (published ? '127.0.0.1' : '0.0.0.0');
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
