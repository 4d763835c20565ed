import type { Client } from '@temporalio/client';
import type { ClaimStore } from '../claims/store.js';
import type { Config } from '../config.js';
import type { TimingInput } from '../../workflows/messages/common.js';
import { AchFollowupClient } from './ach-followup.js';
import { CheckoutClient } from './checkout.js';
import { KycClient } from './kyc.js';
import { OnboardingClient } from './onboarding.js';
import { ProvisioningClient } from './provisioning.js';
import { WalletsClient } from './wallets.js';

// `payflows/client`: what a backend service imports.
export { CheckoutEndedError } from './checkout.js';
export { AlreadyFinishedError, InputRejectedError, ProcessNotFoundError } from './errors.js';
export { connectClients, type ConnectedClients } from './connect.js';
export { AchFollowupClient, CheckoutClient, KycClient, OnboardingClient, ProvisioningClient, WalletsClient };
export { type ClaimStore, ClaimIntegrityError, LocalClaimStore } from '../claims/store.js';
export { ConfigError, loadConfig } from '../config.js';

/** Every process client, configured from the environment (see README "Configuration"). */
export function createClients(client: Client, config: Config, claims: ClaimStore, timing: TimingInput = {}) {
  const taskQueue = config.temporal.taskQueue;
  const t = { ...config.processes.timing, ...timing };
  return {
    wallets: new WalletsClient(client, { taskQueue, pollIntervalMs: config.wallet.pollIntervalMs, pollMaxMs: config.wallet.pollMaxMs, reconcileIntervalMs: config.wallet.reconcileIntervalMs }),
    kyc: new KycClient(client, { taskQueue, claims, timing: t, maxAttemptsPerField: config.processes.kycMaxAttempts }),
    achFollowup: new AchFollowupClient(client, { taskQueue, claims, timing: t }),
    onboarding: new OnboardingClient(client, { taskQueue, timing: t }),
    checkout: new CheckoutClient(client, { taskQueue, timing: t }),
    provisioning: new ProvisioningClient(client, { taskQueue, claims }),
  };
}

export type Clients = ReturnType<typeof createClients>;
