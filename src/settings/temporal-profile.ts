import { loadClientConfigProfile, toClientOptions } from '@temporalio/envconfig';
import type { NativeConnectionOptions } from '@temporalio/worker';
import { plaintextProblem } from '../temporal/plaintext.js';
import { ConfigError } from './config-error.js';

/**
 * The Temporal connection as @temporalio/envconfig reads the environment and TEMPORAL_CONFIG_FILE,
 * refusing what would send a credential in clear; an address means a server this process did not start.
 */
export function temporalProfile(
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
