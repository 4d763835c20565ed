import { Client, Connection } from '@temporalio/client';
import type { Config } from '../config.js';
import { clientTracingInterceptors } from '../telemetry/client-tracing.js';
import { codecFromConfig, encryptingDataConverter } from './codec.js';
import { type ServiceTokenSource, startServiceTokenSource } from './service-token.js';

/**
 * Temporal did not take the connection at start-up: one paragraph for an operator, why and which
 * variables to check, never the address or a credential. The SDK's error is its cause.
 */
export class TemporalUnreachableError extends Error {
  override name = 'TemporalUnreachableError';
}

/** The SDK's connection error (native or gRPC-js) as a TemporalUnreachableError for `role`. */
export function temporalUnreachable(err: unknown, role: string): TemporalUnreachableError {
  return new TemporalUnreachableError(
    `The ${role} cannot reach Temporal: ${whyUnreachable(err)}. Check TEMPORAL_ADDRESS (or the profile's address), TEMPORAL_TLS and its certificates, and that the server is running; the ${role} stops here (an orchestrator restarts it).`,
    { cause: err },
  );
}

function whyUnreachable(err: unknown): string {
  const text = chain(err);
  if (/Invalid address/i.test(text)) return "TEMPORAL_ADDRESS (or the profile's address) is not a hostname:port";
  if (/ConnectionRefused|Connection refused|ECONNREFUSED/i.test(text)) return 'the connection was refused';
  if (/dns error|ENOTFOUND|EAI_AGAIN|failed to lookup|not known|no such host/i.test(text))
    return 'its host name does not resolve';
  if (/certificate|handshake|\btls\b|ssl|UnknownIssuer/i.test(text))
    return 'the TLS handshake failed (TEMPORAL_TLS_SERVER_CA_CERT_PATH, TEMPORAL_TLS_SERVER_NAME, the client certificates, or a server without TLS)';
  if (/unauthenticated|unauthorized|permission denied/i.test(text))
    return 'it refused the credentials (TEMPORAL_API_KEY or the client certificates)';
  if (/deadline|timed? ?out|ETIMEDOUT/i.test(text)) return 'it did not answer in time';
  return 'the connection failed';
}

/** The messages and codes of an error and its causes, to classify (never printed). */
function chain(err: unknown): string {
  const parts: string[] = [];
  for (let link = err, depth = 0; link && depth < 8; depth++) {
    const { message, code, cause } = link as { message?: unknown; code?: unknown; cause?: unknown };
    parts.push(String(message ?? link), String(code ?? ''));
    link = typeof link === 'object' ? cause : undefined;
  }
  return parts.join('\n');
}

/** Where a service says what an operator should see but that does not stop it; default: stderr. */
export interface ConnectionLogOptions {
  warn?: (line: string) => void;
}

/** The warn of `opts`, else stderr. */
export const warnOf = (opts: ConnectionLogOptions) => opts.warn ?? ((line: string) => console.warn(line));

/** A client of this deployment: the configured server, namespace and payload encryption. */
export async function connectClient(config: Config, role = 'client', opts: ConnectionLogOptions = {}): Promise<Client> {
  return clientFor(await connectTemporal(config, role, opts), config);
}

/**
 * A connection to the configured server, presenting the service's token where client credentials
 * are configured (refreshed until it closes); a server that does not take it is a
 * TemporalUnreachableError for `role`.
 */
export async function connectTemporal(
  config: Config,
  role = 'client',
  opts: { connectTimeoutMs?: number } & ConnectionLogOptions = {},
): Promise<Connection> {
  const tokens = await serviceTokens(config, role, opts);
  let connection: Connection;
  try {
    connection = await Connection.connect({
      ...config.temporal.connection,
      ...(tokens && { apiKey: () => tokens.current() }),
      ...(opts.connectTimeoutMs !== undefined && { connectTimeout: opts.connectTimeoutMs }),
    });
  } catch (err) {
    tokens?.stop();
    throw temporalUnreachable(err, role);
  }
  if (tokens) stopWithConnection(connection, tokens);
  return connection;
}

/**
 * The service's token source when client credentials are configured (TEMPORAL_OAUTH_*): its first
 * token fetched, its refreshes logged. A provider that refuses stops the start here, saying why.
 */
export async function serviceTokens(
  config: Config,
  role: string,
  opts: ConnectionLogOptions = {},
): Promise<ServiceTokenSource | undefined> {
  if (!config.temporal.serviceToken) return undefined;
  const warn = warnOf(opts);
  try {
    return await startServiceTokenSource(config.temporal.serviceToken, {
      log: (line) => warn(`${role}: ${line}`),
    });
  } catch (err) {
    throw new TemporalUnreachableError(
      `The ${role} has no token for Temporal: ${(err as Error).message}. The ${role} stops here (an orchestrator restarts it).`,
      { cause: err },
    );
  }
}

/** The token source's refreshes end when the connection closes. */
export function stopWithConnection(connection: { close(): Promise<void> }, tokens: ServiceTokenSource): void {
  const close = connection.close.bind(connection);
  connection.close = async () => {
    tokens.stop();
    await close();
  };
}

export function clientFor(connection: Connection, config: Config): Client {
  return new Client({
    connection,
    namespace: config.temporal.namespace,
    dataConverter: encryptingDataConverter(codecFromConfig(config.payloads)),
    interceptors: clientTracingInterceptors(),
  });
}
