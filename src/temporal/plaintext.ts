import { isIPv4 } from 'node:net';
import type { NativeConnectionOptions } from '@temporalio/worker';

// Plaintext to Temporal carries every payload's metadata, and a credential if there is one. It is
// taken only where it cannot leave the machine (loopback) or where it was asked for by name
// (TEMPORAL_TLS=false, or `disabled = true` in a profile's tls); an API key is never sent in clear.

/** What is wrong with connecting this way, for a ConfigError; undefined when nothing is. */
export function plaintextProblem(
  address: string,
  connection: NativeConnectionOptions,
  tlsSaidOff: boolean,
): string | undefined {
  if (connection.tls) return undefined;
  if (connection.apiKey)
    return "TEMPORAL_API_KEY is set but TLS is off (TEMPORAL_TLS=false, or `disabled = true` in the profile's tls): the key would travel in clear. Remove TEMPORAL_TLS=false (an API key implies TLS), or the key";
  if (tlsSaidOff || isLoopback(address)) return undefined;
  // Not the address itself: a configuration error names the variable, never its value (docs/configuration.md).
  return `TEMPORAL_ADDRESS (or the profile's address) is not on this machine (localhost, ::1 or 127.x), and nothing says how to secure the connection: set TEMPORAL_TLS=true (with TEMPORAL_TLS_SERVER_CA_CERT_PATH where its certificate is not publicly trusted), TEMPORAL_API_KEY, or TEMPORAL_TLS_CLIENT_CERT_PATH and TEMPORAL_TLS_CLIENT_KEY_PATH; or TEMPORAL_TLS=false to connect in plaintext over a network you trust`;
}

/** `host:port`, `[v6]:port` or a bare host on this machine's loopback. */
export function isLoopback(address: string): boolean {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  const host = (
    bracketed ? bracketed[1]! : address.split(':').length === 2 ? address.split(':')[0]! : address
  ).toLowerCase();
  return host === 'localhost' || host === '::1' || (isIPv4(host) && host.startsWith('127.'));
}
