import { z } from 'zod';
import { ConfigError } from './settings/config-error.js';
import { SANDBOX_CREDENTIALS } from './settings/sandbox-credentials.js';
import { clientCredentials, serviceTokenProblems, withTokenTls } from './settings/service-token.js';
import { ALL_SETTINGS, SETTINGS, type Values, valuesOf } from './settings/table.js';
import { temporalProfile } from './settings/temporal-profile.js';

// The environment (src/settings/table.ts describes each setting) parsed once into the Config; a bad
// value stops start-up with the variable's name. Defaults meant for the embedded stack never apply
// to a real provider or Temporal server: src/required-settings.ts names what a process then needs.

export { ConfigError } from './settings/config-error.js';
export { SANDBOX_CREDENTIALS } from './settings/sandbox-credentials.js';

/** The environment's schema: each variable read by its setting's kind, its default applied. */
export const envSchema = z.object(Object.fromEntries(ALL_SETTINGS.map((s) => [s.env, s.schema])));

export function loadConfig(env: Record<string, string | undefined> = process.env) {
  // Empty strings mean "unset", as a shell's `VAR=` would suggest.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(present);
  const values = parsed.success ? valuesOf(SETTINGS, parsed.data) : undefined;
  // The variable and what is wrong with it, never its value: a bad value may still hold a secret
  // (a key, a token, credentials in a URL), and this message ends up in container logs.
  const problems = values
    ? [...acrossSettings(values), ...serviceTokenProblems(values.temporal.oauth, present)]
    : (parsed.error?.issues ?? []).map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  if (!values || problems.length)
    throw new ConfigError(
      `Invalid configuration; fix these environment variables:\n${problems.map((p) => `  ${p}`).join('\n')}`,
    );
  const { temporal, provider, sandbox, ingress, worker, wallet, claims, payloads, codecServer, telemetry, processes } =
    values;
  const profile = temporalProfile(withTokenTls(env, temporal.oauth), temporal.port);
  const embedded = profile.address === undefined;
  const usesSandbox = provider.baseUrl === undefined;
  /** Newest first. The sandbox's published secret only for the embedded stack: anyone could sign with it. */
  const callbackSecrets =
    list(ingress.callbackSecrets) ??
    (provider.secretKey ? [provider.secretKey] : usesSandbox && embedded ? [SANDBOX_CREDENTIALS.secretKey] : []);
  // The sandbox's published credentials, for the sandbox only.
  const sandboxOnly = <K extends keyof typeof SANDBOX_CREDENTIALS>(key: K) =>
    usesSandbox ? SANDBOX_CREDENTIALS[key] : undefined;
  const { health, versioning } = worker;
  return {
    temporal: {
      ...temporal,
      /** Unset means: start the embedded dev server (npm run dev) or expect it on localhost. */
      address: profile.address,
      embedded,
      namespace: profile.namespace,
      /** For Connection.connect and NativeConnection.connect: address, TLS, API key, gRPC metadata. */
      connection: profile.connection,
      /** Client credentials for the service's token, sent as the connection's API key (src/temporal/service-token.ts). */
      serviceToken: clientCredentials(temporal.oauth),
    },
    provider: {
      ...provider,
      baseUrl: provider.baseUrl ?? `http://127.0.0.1:${sandbox.port}`,
      usesSandbox,
      apiKey: provider.apiKey ?? sandboxOnly('apiKey'),
      secretKey: provider.secretKey ?? sandboxOnly('secretKey'),
      accountId: provider.accountId ?? sandboxOnly('accountId'),
    },
    sandbox,
    ingress: {
      ...ingress,
      host: ingressHost(ingress.host, callbackSecrets),
      /** /health and /metrics (src/ingress/ops.ts). */
      ops: ingress.ops,
      /** Where the provider sends callbacks; a loopback address only for the sandbox. */
      publicUrl: ingress.publicUrl ?? (usesSandbox ? `http://127.0.0.1:${ingress.port}` : undefined),
      callbackSecrets,
    },
    worker: {
      ...worker,
      health: health.port === undefined ? undefined : { host: health.host, port: health.port },
      /** Off: the worker runs unversioned. The build id, when unset, is found at start (worker/build-id.ts). */
      versioning: {
        ...versioning,
        enabled: versioning.enabled === 'on',
        /** Against a cluster someone runs, only said explicitly: see WORKER_VERSION_BOOTSTRAP. */
        bootstrap: (versioning.bootstrap ?? (embedded ? 'on' : 'off')) === 'on',
      },
    },
    wallet,
    claims: {
      ...claims,
      previousKeys: list(claims.previousKeys) ?? [],
      /** Only the embedded stack lets the store keep a claim key of its own beside its files. */
      mayKeepOwnKey: embedded,
    },
    payloads: {
      ...payloads,
      previousKeys: list(payloads.previousKeys) ?? [],
      /** Only the embedded stack makes a key of its own; elsewhere the key file must already exist. */
      mayCreateKeyFile: embedded,
      codecServerPort: codecServer.port,
    },
    codecServer: {
      ...codecServer,
      allowedOrigins: list(codecServer.allowedOrigins) ?? [
        `http://127.0.0.1:${temporal.uiPort}`,
        `http://localhost:${temporal.uiPort}`,
      ],
      allowedHosts: (
        list(codecServer.allowedHosts) ?? [`127.0.0.1:${codecServer.port}`, `localhost:${codecServer.port}`]
      ).map((h) => h.toLowerCase()),
    },
    telemetry: {
      ...telemetry,
      workerMetrics:
        telemetry.workerMetrics.port === undefined
          ? undefined
          : `${telemetry.workerMetrics.host}:${telemetry.workerMetrics.port}`,
    },
    processes,
  };
}

export type Config = ReturnType<typeof loadConfig>;

/** What is wrong between settings that are each right alone, as `VARIABLE: what to do`. */
function acrossSettings({ ingress, codecServer, claims, processes }: Values<typeof SETTINGS>): string[] {
  const problems: string[] = [];
  if (ingress.ops.port === ingress.port)
    problems.push(
      `INGRESS_OPS_PORT: must differ from INGRESS_PORT (${ingress.port}): /health and /metrics stay off the public callback port`,
    );
  if (codecServer.ops.port === codecServer.port)
    problems.push(
      `CODEC_SERVER_OPS_PORT: must differ from CODEC_SERVER_PORT (${codecServer.port}): /metrics stays off the port that decrypts payloads`,
    );
  // The sweep deletes claims by age: it must not reach a claim whose process may still send it.
  if (claims.retentionMs <= processes.timing.deadlineMs)
    problems.push(
      `CLAIM_RETENTION: must be longer than PROCESS_DEADLINE (${processes.timing.deadlineMs} ms): the retention sweep would delete claims that a running process may still send`,
    );
  return problems;
}

/**
 * Where the callback port listens: loopback while the sandbox's published secret is a callback
 * secret (anyone reaching it could sign a deposit), otherwise every interface; a set address is taken.
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
