import { claimStoreFromConfig } from '../claims/from-config.js';
import type { ClaimStore } from '../claims/store.js';
import { loadConfig } from '../config.js';
import { requireSettings } from '../required-settings.js';
import { connectClient } from '../temporal/connection.js';
import type { TimingInput } from '../../workflows/lib/messages.js';
import { createClients } from './clients.js';

/**
 * Every process client, configured from the environment as the workers are: the Temporal connection,
 * the task queue, the payload key (required: without it nothing returned can be read) and the claim
 * store shared with the workers. `close()` ends the connection.
 */
export async function connectClients(
  opts: { env?: Record<string, string | undefined>; claims?: ClaimStore; timing?: TimingInput } = {},
) {
  const config = loadConfig(opts.env ?? process.env);
  requireSettings(config, 'client');
  const client = await connectClient(config);
  const clients = createClients(client, config, opts.claims ?? claimStoreFromConfig(config), opts.timing);
  return { ...clients, temporal: client, close: () => client.connection.close() };
}

export type ConnectedClients = Awaited<ReturnType<typeof connectClients>>;
