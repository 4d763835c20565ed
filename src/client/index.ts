import { AchFollowupClient } from '../../workflows/ach-followup/client.js';
import { CheckoutClient } from '../../workflows/checkout/client.js';
import { KycClient } from '../../workflows/kyc/client.js';
import { OnboardingClient } from '../../workflows/onboarding/client.js';
import { ProvisioningClient } from '../../workflows/provisioning/client.js';
import { WalletsClient } from '../../workflows/wallet/client.js';

// `payflows/client`: what a backend service imports.
export { CheckoutEndedError } from '../../workflows/checkout/client.js';
export {
  AlreadyFinishedError,
  ClaimStoreError,
  InputRejectedError,
  NotDeliveredError,
  ProcessNotFoundError,
  ProviderRefusedError,
} from '../../workflows/lib/client-errors.js';
export type { ClaimFailureReason } from '../claims/failures.js';
export { connectClients, type ConnectedClients } from './connect.js';
export { createClients, type Clients } from './clients.js';
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
