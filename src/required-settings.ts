import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Config, ConfigError, loadConfig } from './config.js';
import type { Setting } from './settings/setting.js';
import { EX_CONFIG, stop } from './startup.js';
import { SETTINGS } from './settings/table.js';

// What each process needs against the real provider or a Temporal server it did not start, where the
// embedded stack's defaults do not apply: it refuses to start, naming every missing variable and how
// to make it, instead of running with a value that only looks right.

export type ProcessRole = 'worker' | 'ingress' | 'client' | 'codec-server';

/** The variables `role` needs and lacks, in the order they should be fixed. */
export function missingSettings(config: Config, role: ProcessRole): string[] {
  return lacking(config, role).map((s) => s.env);
}

/** The settings `role` needs and lacks; each says how to set it (src/settings/table.ts). */
function lacking(config: Config, role: ProcessRole): Setting[] {
  const { provider, ingress, claims, payloads } = SETTINGS;
  const missing: Setting[] = [];
  const real = !config.provider.usesSandbox;
  if (role === 'worker' && real) {
    if (!config.provider.apiKey) missing.push(provider.apiKey);
    if (!config.provider.secretKey) missing.push(provider.secretKey);
    if (!config.provider.accountId) missing.push(provider.accountId);
    if (!config.ingress.publicUrl) missing.push(ingress.publicUrl);
  }
  // Empty unless set, except for the embedded stack's sandbox (src/config.ts): a real provider or
  // a real cluster both need the secret.
  if (role === 'ingress' && config.ingress.callbackSecrets.length === 0) missing.push(ingress.callbackSecrets);
  if (!config.payloads.key && !config.payloads.mayCreateKeyFile && !existsSync(config.payloads.keyFile))
    missing.push(payloads.key);
  if ((role === 'worker' || role === 'client') && !claimKeyAvailable(config)) missing.push(claims.key);
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
  const missing = lacking(config, role);
  if (missing.length === 0) return;
  const why = [
    !config.provider.usesSandbox && `PROVIDER_BASE_URL is set (${config.provider.baseUrl})`,
    !config.temporal.embedded && `Temporal is at ${config.temporal.address}, a server this process did not start`,
  ].filter(Boolean);
  throw new ConfigError(
    `The ${role} refuses to start: ${why.join(' and ')}, so the embedded stack's defaults do not apply. Set:\n${missing.map((s) => `  ${s.env}: ${s.howToSet}`).join('\n')}`,
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
    stop(err, EX_CONFIG);
  }
}
