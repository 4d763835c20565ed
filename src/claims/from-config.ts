import { type Config, ConfigError } from '../config.js';
import { claimKeyAvailable } from '../required-settings.js';
import { LocalClaimStore } from './store.js';

/** The claim store of this deployment: CLAIM_STORE_DIR, sealed under CLAIM_ENCRYPTION_KEY. */
export function claimStoreFromConfig(config: Config): LocalClaimStore {
  const { dir, key, previousKeys } = config.claims;
  if (!claimKeyAvailable(config)) {
    throw new ConfigError('CLAIM_ENCRYPTION_KEY is not set: make it once with `openssl rand -base64 32` and give the same value to every worker and client that shares the claim store');
  }
  return new LocalClaimStore(dir, key ? { key: Buffer.from(key, 'base64'), previousKeys: previousKeys.map((k) => Buffer.from(k, 'base64')) } : {});
}
