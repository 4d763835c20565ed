import { type Config, ConfigError } from '../config.js';
import { claimKeyAvailable } from '../required-settings.js';
import { S3ClaimStore, s3Location } from './s3-store.js';
import { type ClaimStore, LocalClaimStore } from './store.js';

/**
 * The claim store of this deployment: on S3-compatible storage (CLAIM_STORE_URL) or in
 * CLAIM_STORE_DIR, sealed under CLAIM_ENCRYPTION_KEY.
 */
export function claimStoreFromConfig(
  config: Config,
  env: Record<string, string | undefined> = process.env,
): ClaimStore {
  const { dir, url, key, previousKeys } = config.claims;
  const keys = key
    ? { key: Buffer.from(key, 'base64'), previousKeys: previousKeys.map((k) => Buffer.from(k, 'base64')) }
    : undefined;
  if (url) {
    if (!keys)
      throw new ConfigError(
        'CLAIM_STORE_URL is set: set CLAIM_ENCRYPTION_KEY too (`openssl rand -base64 32`), the same for every worker and client',
      );
    try {
      return new S3ClaimStore(s3Location(url, env), keys);
    } catch (err) {
      throw new ConfigError((err as Error).message);
    }
  }
  if (!claimKeyAvailable(config)) {
    throw new ConfigError(
      'CLAIM_ENCRYPTION_KEY is not set: make it once with `openssl rand -base64 32` and give the same value to every worker and client that shares the claim store',
    );
  }
  return new LocalClaimStore(dir, keys ?? {});
}
