import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Config, ConfigError, loadConfig } from './config.js';

// What each process needs before it starts once it is pointed at the real provider
// (PROVIDER_BASE_URL) or at a Temporal server it did not start (TEMPORAL_ADDRESS or a profile):
// there the embedded stack's defaults do not apply, and a process refuses to start, naming every
// missing variable and how to make it, instead of running with a value that only looks right.

export type ProcessRole = 'worker' | 'ingress' | 'client' | 'codec-server';

const HOW = {
  PROVIDER_API_KEY: "the API key of your merchant account, from the provider's dashboard",
  PROVIDER_SECRET_KEY: 'the secret key paired with PROVIDER_API_KEY; it signs requests and verifies callbacks',
  PROVIDER_ACCOUNT_ID: "your merchant account's id (AC_…), as the provider shows it",
  INGRESS_PUBLIC_URL:
    "the https address at which the provider reaches this deployment's ingress (the load balancer in front of it)",
  PROVIDER_CALLBACK_SECRETS:
    "or PROVIDER_SECRET_KEY: the secret key the provider signs callbacks with, from the provider's dashboard (both keys, newest first and comma-separated, during a rotation); against a sandbox, the secret key it was started with",
  CLAIM_ENCRYPTION_KEY:
    'make it once with `openssl rand -base64 32` and give the same value to every worker and backend client that shares the claim store; back it up: without it no stored claim can be read',
  PAYLOAD_ENCRYPTION_KEY:
    'make it once with `openssl rand -base64 32` and give the same value to every worker, ingress, client and codec server of the deployment; back it up: without it no history can be read',
} as const;

export type SettingName = keyof typeof HOW;

/** The variables `role` needs and lacks, in the order they should be fixed. */
export function missingSettings(config: Config, role: ProcessRole): SettingName[] {
  const missing: SettingName[] = [];
  const real = !config.provider.usesSandbox;
  if (role === 'worker' && real) {
    if (!config.provider.apiKey) missing.push('PROVIDER_API_KEY');
    if (!config.provider.secretKey) missing.push('PROVIDER_SECRET_KEY');
    if (!config.provider.accountId) missing.push('PROVIDER_ACCOUNT_ID');
    if (!config.ingress.publicUrl) missing.push('INGRESS_PUBLIC_URL');
  }
  // Empty unless set, except for the embedded stack's sandbox (src/config.ts): a real provider or
  // a real cluster both need the secret.
  if (role === 'ingress' && config.ingress.callbackSecrets.length === 0) missing.push('PROVIDER_CALLBACK_SECRETS');
  if (!config.payloads.key && !config.payloads.mayCreateKeyFile && !existsSync(config.payloads.keyFile))
    missing.push('PAYLOAD_ENCRYPTION_KEY');
  if ((role === 'worker' || role === 'client') && !claimKeyAvailable(config)) missing.push('CLAIM_ENCRYPTION_KEY');
  return missing;
}

/** The claim key is set, or the embedded stack's store keeps its own (or made one already, beside `npm run dev`). */
export function claimKeyAvailable(config: Config): boolean {
  if (config.claims.key !== undefined) return true;
  // Object storage keeps no key of its own.
  return (
    config.claims.url === undefined &&
    (config.claims.mayKeepOwnKey || existsSync(join(config.claims.dir, '.claim-key')))
  );
}

/** Refuses to start `role` without what it needs (a ConfigError that names each variable and how to make it). */
export function requireSettings(config: Config, role: ProcessRole): void {
  const missing = missingSettings(config, role);
  if (missing.length === 0) return;
  const why = [
    !config.provider.usesSandbox && `PROVIDER_BASE_URL is set (${config.provider.baseUrl})`,
    !config.temporal.embedded && `Temporal is at ${config.temporal.address}, a server this process did not start`,
  ].filter(Boolean);
  throw new ConfigError(
    `The ${role} refuses to start: ${why.join(' and ')}, so the embedded stack's defaults do not apply. Set:\n${missing.map((n) => `  ${n}: ${HOW[n]}`).join('\n')}`,
  );
}

/** The provider's credentials, present: the sandbox's own, or the ones configured for the real provider. */
export function providerCredentials(config: Config): { apiKey: string; secretKey: string; accountId: string } {
  const { apiKey, secretKey, accountId } = config.provider;
  if (!apiKey || !secretKey || !accountId) requireSettings(config, 'worker');
  return { apiKey: apiKey!, secretKey: secretKey!, accountId: accountId! };
}

/** Where the provider sends callbacks. */
export function callbackUrl(config: Config): string {
  if (!config.ingress.publicUrl) requireSettings(config, 'worker');
  return `${config.ingress.publicUrl!}/callbacks`;
}

/**
 * The configuration of a process's entry point: loadConfig() and requireSettings(). A refusal is
 * printed as it is (no stack trace: nothing in it is a bug) and ends the process with EX_CONFIG.
 */
export function startupConfig(role: ProcessRole, env: Record<string, string | undefined> = process.env): Config {
  try {
    const config = loadConfig(env);
    requireSettings(config, role);
    return config;
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(78);
  }
}
