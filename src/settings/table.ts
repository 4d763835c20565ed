import {
  KYC_ATTEMPTS_PER_FIELD,
  PROCESS_TIMING_DEFAULTS as TIMING,
  WALLET_TIMING_DEFAULTS as WALLET,
  WALLET_TIMING_MINIMUMS as WALLET_MIN,
} from '../process-defaults.js';
import { accountId } from '../provider/schemas/common.js';
import { LOG_LEVELS } from '../telemetry/logger.js';
import {
  anyUrl,
  baseUrl,
  byteSize,
  bytes,
  duration,
  integer,
  key32,
  matching,
  oneOf,
  onOff,
  port,
  rawText,
  text,
  token,
} from './kinds.js';
import { issuer, PERMISSIONS_CLAIM } from './sign-in.js';
import { SANDBOX_CREDENTIALS } from './sandbox-credentials.js';
import { tokenEndpoint } from './service-token.js';
import { type Setting, setting } from './setting.js';

// Every setting the product reads from the environment, described once, by where its value goes in
// the Config (src/config.ts); docs/configuration.md shows them in this order (`npm run docs:config`).

const dur = duration();
const sandboxCredentials = "the sandbox's master credentials, only while `PROVIDER_BASE_URL` is unset";
const payloadKeyFile = setting('PAYLOAD_KEY_FILE', text, {
  default: '.data/payload.key',
  meaning:
    'without `PAYLOAD_ENCRYPTION_KEY`, the embedded stack keeps a key of its own here; against another Temporal server it is read but never made',
});
const makeKey = (who: string, what: string) =>
  `make it once with \`openssl rand -base64 32\` and give the same value to every ${who}; back it up: without it no ${what} can be read`;
/** Keys read but not written with, during a rotation. */
const previousKeys = (env: string, what: string) =>
  setting(env, rawText, {
    unset: 'none',
    meaning: `comma-separated ${what} keys that are read but not written with: the next key during the first rollout of a rotation, the old one after the second (\`docs/security.md\`)`,
  });

/** A process's operations port, `<prefix>_OPS_PORT`, and where it listens, `<prefix>_OPS_HOST` (loopback unless set). */
const operationsPort = (prefix: string, defaultPort: number, meaning: string) => ({
  port: setting(`${prefix}_OPS_PORT`, port, { default: defaultPort, meaning }),
  host: setting(`${prefix}_OPS_HOST`, text, {
    default: '127.0.0.1',
    meaning: 'where the operations port listens; `0.0.0.0` where Prometheus scrapes from another host or container',
  }),
});

export const SETTINGS = {
  temporal: {
    taskQueue: setting('TEMPORAL_TASK_QUEUE', text, {
      default: 'payflows',
      meaning: 'the task queue every worker polls and every client starts processes on',
    }),
    cliPath: setting('TEMPORAL_CLI_PATH', text, {
      meaning: 'a `temporal` binary for the embedded server; otherwise found or built (`docs/running-locally.md`)',
    }),
    port: setting('TEMPORAL_PORT', port, { default: 7233, meaning: "the embedded server's gRPC port" }),
    uiPort: setting('TEMPORAL_UI_PORT', port, { default: 8233, meaning: "the embedded server's Web UI port" }),
    dbFile: setting('TEMPORAL_DB_FILE', text, {
      default: '.data/temporal.sqlite',
      meaning: "the embedded server's state",
    }),
    // A service's token for a Temporal server that authorizes (`docs/security.md`); or TEMPORAL_API_KEY.
    oauth: {
      tokenUrl: setting('TEMPORAL_OAUTH_TOKEN_URL', tokenEndpoint, {
        unset: 'unset: no service token (`TEMPORAL_API_KEY`, client certificates, or none)',
        meaning:
          "the identity provider's token endpoint: a worker, the ingress or a backend gets its access token for Temporal there by client credentials, at start and again before it expires; implies TLS",
      }),
      clientId: setting('TEMPORAL_OAUTH_CLIENT_ID', text, {
        unset: 'required with `TEMPORAL_OAUTH_TOKEN_URL`',
        meaning:
          "the service's client at the provider; its tokens carry the namespace's writer role (`<namespace>:write`)",
      }),
      clientSecret: setting('TEMPORAL_OAUTH_CLIENT_SECRET', text, {
        unset: 'required with `TEMPORAL_OAUTH_TOKEN_URL`',
        meaning: "that client's secret",
      }),
      scope: setting('TEMPORAL_OAUTH_SCOPE', text, {
        unset: 'none asked for',
        meaning: 'the scope to ask for, where the provider needs one (Entra ID: `api://<application>/.default`)',
      }),
    },
  },
  provider: {
    baseUrl: setting('PROVIDER_BASE_URL', baseUrl, {
      unset: 'unset: the sandbox',
      meaning: "the real provider's base address",
    }),
    apiKey: setting('PROVIDER_API_KEY', text, {
      unset: sandboxCredentials,
      meaning: 'signature auth: the API key',
      howToSet: "the API key of your merchant account, from the provider's dashboard",
    }),
    secretKey: setting('PROVIDER_SECRET_KEY', text, {
      unset: sandboxCredentials,
      meaning: 'signature auth: the secret; it also verifies callbacks',
      howToSet: 'the secret key paired with PROVIDER_API_KEY; it signs requests and verifies callbacks',
    }),
    accountId: setting(
      'PROVIDER_ACCOUNT_ID',
      { schema: accountId },
      {
        unset: `\`${SANDBOX_CREDENTIALS.accountId}\`, only while \`PROVIDER_BASE_URL\` is unset`,
        // docs/provider-contract.md §4.6
        meaning: 'the account of `PROVIDER_API_KEY`: the parent in limits calculations',
        howToSet: "your merchant account's id (AC_…), as the provider shows it",
      },
    ),
    timeoutMs: setting('PROVIDER_TIMEOUT', dur, {
      default: 15_000,
      meaning: "connect, headers and body timeouts of each provider call (below the activities' 1 minute)",
    }),
    maxAnswerBytes: setting('PROVIDER_MAX_ANSWER_BYTES', bytes(64 * 1024, 1024 ** 3), {
      default: 8 * 1024 ** 2,
      meaning:
        "the longest answer read from the provider; a longer one fails the call as `AnswerTooLargeError`, naming the call and the limit, and is retried (raise it and restart the workers if the provider's answers are that large)",
    }),
  },
  sandbox: {
    port: setting('SANDBOX_PORT', port, { default: 4010, meaning: "the sandbox's port" }),
    host: setting('SANDBOX_HOST', text, {
      default: '127.0.0.1',
      meaning: 'where the sandbox listens; loopback because its operator routes need no credentials',
    }),
    stateFile: setting('SANDBOX_STATE_FILE', text, {
      default: '.data/sandbox.json',
      meaning: 'where the sandbox keeps its state across restarts (mode 0600: it holds secret keys and SSNs)',
    }),
  },
  ingress: {
    port: setting('INGRESS_PORT', port, {
      default: 4020,
      meaning: "the ingress's public callback port (`/callbacks`)",
    }),
    host: setting('INGRESS_HOST', text, {
      unset:
        "`127.0.0.1` while any callback secret is the sandbox's published one (`npm run dev`, `npm run cluster`); otherwise `0.0.0.0`",
      meaning:
        "where the callback port listens (`npm run ingress` and `npm run dev`'s). With the sandbox's published secret anyone who reaches it could sign a deposit: set it off loopback only where nobody else reaches it (a container whose port is published on loopback, as docker-compose.yml does)",
    }),
    ops: operationsPort(
      'INGRESS',
      4021,
      "the ingress's operations port: `GET /health` (from a background check of Temporal) and `GET /metrics`, apart from the public callback port",
    ),
    publicUrl: setting('INGRESS_PUBLIC_URL', baseUrl, {
      unset: '`http://127.0.0.1:$INGRESS_PORT`, only while `PROVIDER_BASE_URL` is unset',
      meaning: 'how the provider reaches the ingress; wallets get `$INGRESS_PUBLIC_URL/callbacks`',
      howToSet:
        "the https address at which the provider reaches this deployment's ingress (the load balancer in front of it)",
    }),
    callbackSecrets: setting('PROVIDER_CALLBACK_SECRETS', rawText, {
      unset:
        "`PROVIDER_SECRET_KEY`; the sandbox's only with the embedded Temporal server: pointed at another (`TEMPORAL_ADDRESS` or a profile), the ingress refuses to start without one of the two",
      meaning:
        "comma-separated secrets that callbacks may be signed with, newest first, during a rotation of the provider's secret key",
      howToSet:
        "or PROVIDER_SECRET_KEY: the secret key the provider signs callbacks with, from the provider's dashboard (both keys, newest first and comma-separated, during a rotation); against a sandbox, the secret key it was started with",
    }),
    requestTimeoutMs: setting('INGRESS_REQUEST_TIMEOUT', dur, {
      default: 10_000,
      meaning:
        'longest time to receive a whole callback request; a slower sender gets 408 and its connection is closed (headers within 5 s at most)',
    }),
    maxConnections: setting('INGRESS_MAX_CONNECTIONS', integer(1, 1_000_000), {
      default: 1_024,
      meaning: 'connections the ingress keeps open at once; more are refused',
    }),
    maxBodyBytes: setting('INGRESS_MAX_BODY_BYTES', bytes(1024, 10 * 1024 ** 2), {
      default: 64 * 1024,
      meaning: 'larger callbacks get 413',
    }),
    shutdownGraceMs: setting('INGRESS_SHUTDOWN_GRACE', dur, {
      default: 10_000,
      meaning:
        'on SIGTERM the ingress stops accepting connections and answers the callbacks in flight for at most this long (a request on a kept-alive connection meanwhile gets 503, and the provider resends it)',
    }),
  },
  // At least what the wallet's input takes: followers the ingress starts with less would be refused.
  wallet: {
    pollIntervalMs: setting('WALLET_POLL_INTERVAL', duration({ ms: WALLET_MIN.pollIntervalMs }), {
      default: WALLET.pollIntervalMs,
      meaning:
        "the wait between a wallet's polls for transactions whose callback was lost, after activity; it doubles after every poll that finds nothing",
    }),
    pollMaxMs: setting('WALLET_POLL_MAX', duration({ ms: WALLET_MIN.pollMaxMs }), {
      default: WALLET.pollMaxMs,
      meaning: 'the longest wait between polls of a quiet wallet (16 polls a day)',
    }),
    reconcileIntervalMs: setting('WALLET_RECONCILE_INTERVAL', duration({ ms: WALLET_MIN.reconcileIntervalMs }), {
      default: WALLET.reconcileIntervalMs,
      meaning:
        "how often a wallet's workflow compares its ledger with the provider's balances (also on request: `wallets.reconcile(walletId)`)",
    }),
  },
  claims: {
    dir: setting('CLAIM_STORE_DIR', text, {
      default: '.data/claims',
      meaning: 'where documents and personal values wait, by reference, to be sent (worker and clients must share it)',
    }),
    url: setting(
      'CLAIM_STORE_URL',
      matching(/^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/.*)?$/, 'an S3 address such as s3://my-bucket/claims'),
      {
        unset: 'unset: the local store',
        meaning:
          '`s3://bucket/prefix`: the claim store on S3-compatible storage, with `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_REGION` (default `us-east-1`) and an endpoint override `AWS_ENDPOINT_URL_S3` (path-style addressing, as S3-compatible servers expect); needs `CLAIM_ENCRYPTION_KEY`',
      },
    ),
    key: setting('CLAIM_ENCRYPTION_KEY', key32, {
      unset:
        "unset: the embedded stack's store keeps a key of its own; against another Temporal server workers and clients refuse to start without it",
      meaning:
        "base64 of 32 bytes (`openssl rand -base64 32`): wraps each claim's data key; the same for every worker and client",
      howToSet: makeKey('worker and backend client that shares the claim store', 'stored claim'),
    }),
    previousKeys: previousKeys('CLAIM_PREVIOUS_KEYS', 'claim'),
    retentionMs: setting('CLAIM_RETENTION', dur, {
      default: 30 * 86_400_000,
      meaning:
        'claims older than this are deleted by the retention Schedule; it must be longer than `PROCESS_DEADLINE`, so that no claim a running process may still send is swept',
    }),
    sweepIntervalMs: setting('CLAIM_SWEEP_INTERVAL', dur, {
      default: 3_600_000,
      meaning: 'how often the retention Schedule runs',
    }),
  },
  processes: {
    timing: {
      pollInitialMs: setting('PROCESS_POLL_INITIAL', dur, {
        default: TIMING.pollInitialMs,
        meaning: "a process's first wait between two looks at the provider",
      }),
      pollMaxMs: setting('PROCESS_POLL_MAX', dur, {
        default: TIMING.pollMaxMs,
        meaning: 'the ceiling that wait doubles up to (15 minutes keeps a 14-day wait near 14,000 history events)',
      }),
      reminderAfterMs: setting('PROCESS_REMINDER_AFTER', dur, {
        default: TIMING.reminderAfterMs,
        meaning: 'quiet time before an end user who owes input is reminded',
      }),
      deadlineMs: setting('PROCESS_DEADLINE', dur, {
        default: TIMING.deadlineMs,
        meaning: 'how long a process waits for the end user in all',
      }),
      stallAfterMs: setting('PROCESS_STALL_AFTER', dur, {
        default: TIMING.stallAfterMs,
        meaning:
          'how long one wait on the provider may last; then the process fails as `ProviderStalled` with a message for the operator (restart it once the provider has moved), instead of growing its history without end',
      }),
    },
    kycMaxAttempts: setting('KYC_MAX_ATTEMPTS', integer(1, KYC_ATTEMPTS_PER_FIELD.max), {
      default: KYC_ATTEMPTS_PER_FIELD.default,
      meaning: `submissions per profile field before KYC gives up on it (at most ${KYC_ATTEMPTS_PER_FIELD.max})`,
    }),
  },
  payloads: {
    key: setting('PAYLOAD_ENCRYPTION_KEY', key32, {
      unset: `unset: the embedded stack makes a key once in \`PAYLOAD_KEY_FILE\` (${payloadKeyFile.defaultText}); against another Temporal server that file is read but never made`,
      meaning:
        'base64 of 32 bytes (`openssl rand -base64 32`); the same for every worker, ingress, client and codec server of a deployment',
      howToSet: makeKey('worker, ingress, client and codec server of the deployment', 'history'),
    }),
    previousKeys: previousKeys('PAYLOAD_PREVIOUS_KEYS', 'payload'),
    keyFile: payloadKeyFile,
  },
  codecServer: {
    port: setting('CODEC_SERVER_PORT', port, {
      default: 4030,
      meaning: "the codec server's port (`npm run dev`'s, or `npm run codec-server`)",
    }),
    host: setting('CODEC_SERVER_HOST', text, {
      default: '127.0.0.1',
      meaning: 'where the codec server listens; loopback because it decrypts payloads for whoever may call it',
    }),
    token: setting('CODEC_SERVER_TOKEN', token, {
      unset: "unset: only `npm run dev`'s codec server may run without it",
      meaning:
        "the credential every caller of the codec server presents: `Authorization: Bearer …` (the CLI's `--codec-auth`), or a browser's session from signing in at `/session` (the Web UI with `TEMPORAL_CODEC_INCLUDE_CREDENTIALS=true`); `openssl rand -hex 32`",
    }),
    allowedOrigins: setting('CODEC_SERVER_ALLOWED_ORIGINS', rawText, {
      unset: "the embedded UI's (`http://127.0.0.1:$TEMPORAL_UI_PORT`, `http://localhost:…`)",
      meaning: 'comma-separated origins of the Web UI',
    }),
    allowedHosts: setting('CODEC_SERVER_ALLOWED_HOSTS', rawText, {
      unset: '`127.0.0.1:$CODEC_SERVER_PORT`, `localhost:…`',
      meaning:
        "comma-separated `host:port` names the codec server answers to (the name the operator's browser uses); any other `Host` is refused, which stops a DNS-rebinding page",
    }),
    // Sign-in: the Web UI passes the signed-in user's access token; docs/security.md says what to set for Okta, Entra ID, Keycloak or Dex.
    oidc: {
      issuer: setting('CODEC_SERVER_OIDC_ISSUER', issuer, {
        unset: 'unset: no sign-in (the token or, with neither, the embedded stack only)',
        meaning:
          "the identity provider the Web UI signs users in at, exactly as its tokens' `iss` names it (https; http only on loopback); the codec server reads its keys from its discovery document and decodes for a user whose access token it verifies",
      }),
      audience: setting('CODEC_SERVER_OIDC_AUDIENCE', text, {
        unset: 'required with `CODEC_SERVER_OIDC_ISSUER`',
        meaning:
          "`aud` of the access tokens the Web UI passes (the API the provider issues them for: Temporal's audience); a token for anything else is refused",
      }),
      roleClaim: setting(
        'CODEC_SERVER_OIDC_ROLE_CLAIM',
        matching(
          /^[^.\s]+(\.[^.\s]+)*$/,
          'must name a claim: a name such as permissions, roles or groups, or a dotted path such as realm_access.roles',
        ),
        {
          default: PERMISSIONS_CLAIM,
          meaning:
            "the access token's claim holding the user's roles or groups (a list, or a space-separated string); a dotted path reaches into an object (Keycloak's `realm_access.roles`)",
        },
      ),
      decodeRole: setting('CODEC_SERVER_OIDC_DECODE_ROLE', text, {
        default: '{namespace}:decode',
        meaning:
          "the role or group in that claim that allows decoding; `{namespace}` stands for the namespace the Web UI names (`X-Namespace`), so the default reads `default:decode` beside Temporal's `default:read`",
      }),
    },
    ops: operationsPort(
      'CODEC_SERVER',
      4031,
      "the codec server's operations port: `GET /metrics` only, without a token, apart from the port that decrypts payloads",
    ),
  },
  telemetry: {
    logLevel: setting('LOG_LEVEL', oneOf(LOG_LEVELS), {
      default: 'info',
      meaning: `${LOG_LEVELS.map((l) => `\`${l}\``)
        .join(', ')
        .replace(/, ([^,]*)$/, ' or $1')}, for every process`,
    }),
    otlpEndpoint: setting('OTEL_EXPORTER_OTLP_ENDPOINT', anyUrl, {
      unset: 'unset: no traces leave the process',
      meaning: 'an OTLP/HTTP collector for traces (the exporter also reads the other `OTEL_EXPORTER_OTLP_*` variables)',
    }),
    workerMetrics: {
      port: setting('WORKER_METRICS_PORT', port, {
        unset: 'unset: off (`npm run dev`: 9464)',
        meaning: "the worker's Prometheus endpoint, `/metrics` (the SDK's metrics and the product's)",
      }),
      host: setting('WORKER_METRICS_HOST', text, {
        default: '127.0.0.1',
        meaning: 'where that endpoint listens; `0.0.0.0` where Prometheus scrapes from another host or container',
      }),
    },
  },
  worker: {
    shutdownGraceMs: setting('WORKER_SHUTDOWN_GRACE', dur, {
      default: 30_000,
      meaning:
        "on SIGTERM (or SIGINT) the worker takes no new task and lets running activities finish for this long; then they are cancelled, and 5 s later the worker exits. Set the orchestrator's stop timeout above it (compose's `stop_grace_period`)",
    }),
    maxConcurrentActivities: setting('WORKER_MAX_CONCURRENT_ACTIVITIES', integer(1, 10_000), {
      unset: "the SDK's (100)",
      meaning: 'activities a worker runs at once',
    }),
    maxConcurrentWorkflowTasks: setting('WORKER_MAX_CONCURRENT_WORKFLOW_TASKS', integer(2, 10_000), {
      unset: "the SDK's (40)",
      meaning: 'workflow tasks a worker runs at once',
    }),
    maxCachedWorkflows: setting('WORKER_MAX_CACHED_WORKFLOWS', integer(0, 1_000_000), {
      unset: "from the worker's memory (`WORKER_MEMORY`)",
      meaning: "workflows kept in a worker's cache (`docs/capacity.md`)",
    }),
    memoryBytes: setting('WORKER_MEMORY', byteSize, {
      unset: "unset: the container's cgroup limit",
      meaning:
        "the worker's memory (`512Mi`, `1Gi`); with the heap (`NODE_OPTIONS=--max-old-space-size`, 640 MiB in compose and the image) it sizes the workflow cache, printed at start (`docs/capacity.md`)",
    }),
    health: {
      port: setting('WORKER_HEALTH_PORT', port, {
        unset: 'unset: off (the image: 9470)',
        meaning:
          'the worker\'s `GET /health` for orchestrators: 200 `{"status":"ok","state":"RUNNING","temporal":"connected"}` while it polls and Temporal answers, 503 with the reason otherwise (draining, stopped, Temporal unreachable: no answer within 2 s)',
      }),
      host: setting('WORKER_HEALTH_HOST', text, {
        default: '127.0.0.1',
        meaning: "where the worker's `/health` listens",
      }),
    },
    versioning: {
      enabled: setting('WORKER_VERSIONING', onOff, {
        default: 'on',
        meaning:
          'the worker runs as a version of a Worker Deployment: processes pinned to the version they started on, wallets moving to the current one (`docs/deploying.md`); `off` for a Temporal server without Worker Deployments (before 1.28), the worker then runs unversioned',
      }),
      // What Temporal 1.29 takes as a Worker Deployment's name and a build id: no '.' or ':' in the
      // name (they join the two into a version string), neither starting with '__' (the server's own).
      deploymentName: setting(
        'WORKER_DEPLOYMENT_NAME',
        matching(
          /^(?!__)[^.:\s]{1,200}$/,
          "must be 1 to 200 characters without '.', ':' or spaces, not starting with '__'",
        ),
        { default: 'payflows', meaning: "the Worker Deployment every worker of this product joins (no '.' or ':')" },
      ),
      buildId: setting(
        'WORKER_BUILD_ID',
        matching(/^(?!__)\S{1,200}$/, "must be 1 to 200 characters without spaces, not starting with '__'"),
        {
          unset:
            "the id `npm run build` wrote (the image's `WORKER_BUILD_ID` build argument, else the checkout's commit or the bundle's hash); on the embedded server only, else the checkout's commit (`<commit>-dirty-<hash>` when modified); otherwise required",
          meaning:
            "this worker's version in the deployment, printed at start; workers of the same code share it, a changed workflow needs a new one (`docs/deploying.md`)",
        },
      ),
      bootstrap: setting('WORKER_VERSION_BOOTSTRAP', onOff, {
        unset: 'on with the embedded server, off otherwise (`npm run cluster` and compose set `on`)',
        meaning:
          "`on`: a deployment's very first version makes itself current — only if no current version was ever set (unversioned included), nothing ramps, no other version is registered and no unversioned worker polls the task queue; `off`: only an operator changes it (`docs/deploying.md`)",
      }),
    },
  },
} as const;

type Group = { readonly [field: string]: Setting | Group };

const isSetting = (entry: Setting | Group): entry is Setting => typeof entry.env === 'string';

function flatten(group: Group): Setting[] {
  return Object.values(group).flatMap((entry) => (isSetting(entry) ? [entry] : flatten(entry)));
}

/** Every setting, in the table's order. */
export const ALL_SETTINGS: readonly Setting[] = flatten(SETTINGS);

/** What each setting of `group` reads as, by its field: the values of the parsed environment. */
export type Values<G> = { -readonly [F in keyof G]: G[F] extends Setting<infer V> ? V : Values<G[F]> };

export function valuesOf<G extends Group>(group: G, parsed: Record<string, unknown>): Values<G> {
  return Object.fromEntries(
    Object.entries(group).map(([field, entry]) => [
      field,
      isSetting(entry) ? parsed[entry.env] : valuesOf(entry, parsed),
    ]),
  ) as Values<G>;
}
