import type { Client } from '@temporalio/client';
import type { ClaimStore } from '../claims/store';
import type { Config } from '../config';
import type { TimingInput } from '../../workflows/messages/common';
import { AchFollowupClient } from './ach-followup';
import { CheckoutClient } from './checkout';
import { KycClient } from './kyc';
import { OnboardingClient } from './onboarding';
import { ProvisioningClient } from './provisioning';
import { WalletsClient } from './wallets';

export { CheckoutEndedError } from './checkout';
export { AlreadyFinishedError, InputRejectedError, ProcessNotFoundError } from './errors';

/** Every process client, configured from the environment (see README "Configuration"). */
export function createClients(client: Client, config: Config, claims: ClaimStore, timing: TimingInput = {}) {
  const taskQueue = config.temporal.taskQueue;
  const t = { ...config.processes.timing, ...timing };
  return {
    wallets: new WalletsClient(client, { taskQueue, pollIntervalMs: config.wallet.pollIntervalMs }),
    kyc: new KycClient(client, { taskQueue, claims, timing: t, maxAttemptsPerField: config.processes.kycMaxAttempts }),
    achFollowup: new AchFollowupClient(client, { taskQueue, claims, timing: t }),
    onboarding: new OnboardingClient(client, { taskQueue, timing: t }),
    checkout: new CheckoutClient(client, { taskQueue, timing: t }),
    provisioning: new ProvisioningClient(client, { taskQueue, claims }),
  };
}

export type Clients = ReturnType<typeof createClients>;
