import type { Config } from '../config.js';
import { providerCredentials } from '../required-settings.js';
import { ProviderClient, type ProviderClientOptions } from './client.js';

/** The provider client for the configured service (the sandbox unless PROVIDER_BASE_URL is set). */
export function providerFromConfig(config: Config, extra: Pick<ProviderClientOptions, 'onCall'> = {}): ProviderClient {
  const { apiKey, secretKey } = providerCredentials(config);
  return new ProviderClient({
    ...extra,
    baseUrl: config.provider.baseUrl,
    auth: { kind: 'signature', apiKey, secretKey },
    timeoutMs: config.provider.timeoutMs,
    maxAnswerBytes: config.provider.maxAnswerBytes,
  });
}
