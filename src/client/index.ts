import type { Client } from '@temporalio/client';
import type { ClaimStore } from '../claims/store.js';
import type { Config } from '../config.js';
import type { TimingInput } from '../../workflows/lib/messages.js';
import { AchFollowupClient } from './ach-followup.js';
import { CheckoutClient } from './checkout.js';
import { KycClient } from './kyc.js';
import { OnboardingClient } from './onboarding.js';
import { ProvisioningClient } from './provisioning.js';
import { WalletsClient } from './wallets.js';

// `payflows/client`: what a backend service imports.
export { CheckoutEndedError } from './checkout.js';
export {
  AlreadyFinishedError,
  ClaimStoreError,
  InputRejectedError,
  NotDeliveredError,
  ProcessNotFoundError,
  ProviderRefusedError,
} from './errors.js';
export type { ClaimFailureReason } from '../claims/failures.js';
export { connectClients, type ConnectedClients } from './connect.js';
export { AchFollowupClient, CheckoutClient, KycClient, OnboardingClient, ProvisioningClient, WalletsClient };
export { type ClaimStore, ClaimGoneError, ClaimIntegrityError, LocalClaimStore } from '../claims/store.js';
export { ConfigError, loadConfig } from '../config.js';

// What a backend passes to the processes and gets back from them, by name (types only: the
// workflows' messages are defined once, in workflows/<process>/messages.ts, and shared with the workers).
export type { ClaimRef, TimingInput } from '../../workflows/lib/messages.js';
export type { PutOptions } from '../claims/store.js';
export type {
  Balance,
  Drift,
  Entry,
  EntryKind,
  LedgerStats,
  OpenWalletResult,
  Reconciliation,
  SeenVia,
  WalletView,
} from '../../workflows/wallet/messages.js';
export type { KycField, KycOutcome, KycResult, KycStage, KycState } from '../../workflows/kyc/messages.js';
export type { KycReason, Provide } from '../../workflows/kyc/messages.js';
export type {
  AchFollowupInput,
  AchOutcome,
  AchResult,
  AchStage,
  AchState,
  SourceOfFunds,
} from '../../workflows/ach-followup/messages.js';
export type {
  OnboardingInput,
  OnboardingOutcome,
  OnboardingResult,
  OnboardingStage,
  OnboardingState,
  UserStatus,
} from '../../workflows/onboarding/messages.js';
export type {
  CheckoutInput,
  CheckoutOutcome,
  CheckoutResult,
  CheckoutStage,
  CheckoutState,
  HostedPage,
  PurchaseRedirect,
} from '../../workflows/checkout/messages.js';
export type {
  ProvisioningOutcome,
  ProvisioningResult,
  ProvisioningStage,
  ProvisioningState,
} from '../../workflows/provisioning/messages.js';
export type { Limits } from '../provider/schemas/limits.js';
/** What `wallets.open()` takes. */
export type OpenWalletRequest = Parameters<WalletsClient['open']>[0];
/** What `provisioning.start()` takes (the secret in clear: the client stores it as a claim). */
export type ProvisioningRequest = Parameters<ProvisioningClient['start']>[0];
/** A file for `kyc.submitDocument()`: its bytes, MIME type and, optionally, document type and side. */
export type KycDocumentFile = Parameters<KycClient['submitDocument']>[2];

/** Every process client, configured from the environment (see docs/configuration.md). */
export function createClients(client: Client, config: Config, claims: ClaimStore, timing: TimingInput = {}) {
  const taskQueue = config.temporal.taskQueue;
  const processTiming = { ...config.processes.timing, ...timing };
  return {
    wallets: new WalletsClient(client, {
      taskQueue,
      pollIntervalMs: config.wallet.pollIntervalMs,
      pollMaxMs: config.wallet.pollMaxMs,
      reconcileIntervalMs: config.wallet.reconcileIntervalMs,
    }),
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
