import type { Client } from '@temporalio/client';
import type { ClaimStore } from '../claims/store.js';
import type { Config } from '../config.js';
import type { TimingInput } from '../../workflows/lib/messages.js';
import { AchFollowupClient } from '../../workflows/ach-followup/client.js';
import { CheckoutClient } from '../../workflows/checkout/client.js';
import { KycClient } from '../../workflows/kyc/client.js';
import { OnboardingClient } from '../../workflows/onboarding/client.js';
import { ProvisioningClient } from '../../workflows/provisioning/client.js';
import { WalletsClient } from '../../workflows/wallet/client.js';

/** Every process client, configured from the environment (see docs/configuration.md). */
export function createClients(client: Client, config: Config, claims: ClaimStore, timing: TimingInput = {}) {
  const taskQueue = config.temporal.taskQueue;
  const processTiming = { ...config.processes.timing, ...timing };
  return {
    wallets: new WalletsClient(client, { taskQueue, ...config.wallet }),
    kyc: new KycClient(client, {
      taskQueue,
      claims,
      timing: processTiming,
      maxAttemptsPerField: config.processes.kycMaxAttempts,
    }),
    achFollowup: new AchFollowupClient(client, { taskQueue, claims, timing: processTiming }),
    onboarding: new OnboardingClient(client, { taskQueue, timing: processTiming }),
    checkout: new CheckoutClient(client, { taskQueue, timing: processTiming }),
    provisioning: new ProvisioningClient(client, { taskQueue, claims }),
  };
}

export type Clients = ReturnType<typeof createClients>;
