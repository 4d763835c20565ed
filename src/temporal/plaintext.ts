import { isIPv4, isIPv6 } from 'node:net';
import type { NativeConnectionOptions } from '@temporalio/worker';

// Plaintext to Temporal only on loopback or where asked for by name (TEMPORAL_TLS=false, a profile's
// `disabled = true`); a credential (the API key, or gRPC metadata) is never sent in clear.

/**
 * gRPC metadata that is a credential: a name that says so (authorization, x-api-key, a token, a
 * secret, a password, a cookie, a session, a signature), or a value in an HTTP authentication scheme
 * (`Bearer …`, `Basic …`), whatever its name. Such metadata is treated as TEMPORAL_API_KEY is.
 */
const CREDENTIAL_NAME = /auth|token|key|secret|passw|credential|cookie|session|signature/i;
const CREDENTIAL_VALUE = /^\s*(bearer|basic|digest|negotiate|token|apikey|api-key)(\s|$)/i;

export function credentialMetadataKeys(metadata: NativeConnectionOptions['metadata']): string[] {
  return Object.entries(metadata ?? {})
    .filter(([key, value]) => CREDENTIAL_NAME.test(key) || (typeof value === 'string' && CREDENTIAL_VALUE.test(value)))
    .map(([key]) => key);
}

/** What is wrong with connecting this way, for a ConfigError; undefined when nothing is. */
export function plaintextProblem(
  address: string,
  connection: NativeConnectionOptions,
  tlsSaidOff: boolean,
  /** Where a metadata key came from, for the message: its variable, or the profile's grpc_meta. */
  metadataSource: (key: string) => string = (key) => `gRPC metadata \`${key}\``,
): string | undefined {
  if (connection.tls) return undefined;
  if (connection.apiKey)
    return "TEMPORAL_API_KEY is set but TLS is off (TEMPORAL_TLS=false, or `disabled = true` in the profile's tls): the key would travel in clear. Remove TEMPORAL_TLS=false (an API key implies TLS), or the key";
  const credentials = credentialMetadataKeys(connection.metadata);
  if (credentials.length > 0)
    // The names only: a configuration error never shows a value.
    return `${credentials.map(metadataSource).join(', ')} holds a credential (gRPC metadata named like authorization, a key, a token or a secret, or a Bearer/Basic value) but TLS is off: it would travel in clear, as TEMPORAL_API_KEY would. Set TEMPORAL_TLS=true (with TEMPORAL_TLS_SERVER_CA_CERT_PATH where the server's certificate is not publicly trusted), or remove it`;
  if (tlsSaidOff || isLoopback(address)) return undefined;
  // Not the address itself: a configuration error names the variable, never its value (docs/configuration.md).
  return `TEMPORAL_ADDRESS (or the profile's address) is not on this machine (localhost, ::1 or 127.x), and nothing says how to secure the connection: set TEMPORAL_TLS=true (with TEMPORAL_TLS_SERVER_CA_CERT_PATH where its certificate is not publicly trusted), TEMPORAL_API_KEY, or TEMPORAL_TLS_CLIENT_CERT_PATH and TEMPORAL_TLS_CLIENT_KEY_PATH; or TEMPORAL_TLS=false to connect in plaintext over a network you trust`;
}

/**
 * `host:port`, `[v6]:port` or a bare host on this machine's loopback. Read strictly: a host of
 * letters, digits, dots and hyphens (or a bracketed IPv6 address), then at most a port of digits.
 * Anything else is not loopback: in `localhost:7233@evil.example` the worker dials evil.example.
 */
export function isLoopback(address: string): boolean {
  if (isIPv6(address)) return v6Loopback(address);
  const parts = /^(?:\[([^[\]]+)\]|([A-Za-z0-9.-]+))(?::(\d{1,5}))?$/.exec(address);
  if (!parts || (parts[3] !== undefined && Number(parts[3]) > 65535)) return false;
  const [, v6, host] = parts;
  if (v6 !== undefined) return isIPv6(v6) && v6Loopback(v6);
  const name = host!.toLowerCase();
  return name === 'localhost' || (isIPv4(name) && name.startsWith('127.'));
}

/** ::1 however it is written (0:0:0:0:0:0:0:1 too). */
function v6Loopback(address: string): boolean {
  return new URL(`http://[${address}]/`).hostname === '[::1]';
}
