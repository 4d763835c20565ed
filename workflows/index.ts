// Every workflow a versioned worker runs (the default); a worker with WORKER_VERSIONING=off bundles
// ./unversioned.ts instead. Workflow code is deterministic: @temporalio/workflow, pure helpers, types.
export * from './processes.js';
// AUTO_UPGRADE; every other process runs PINNED, the worker's default (worker/create-worker.ts).
export { openWalletWorkflow } from './wallet/versioning.js';
export { walletWorkflow } from './wallet/versioning.js';

// The signatures clients start them by (each process's messages.ts) are these functions' own.
import type { AchFollowupWorkflow } from './ach-followup/messages.js';
import type { CheckoutWorkflow } from './checkout/messages.js';
import type { KycWorkflow } from './kyc/messages.js';
import type { OnboardingWorkflow } from './onboarding/messages.js';
import type { ProvisioningWorkflow } from './provisioning/messages.js';
import type { OpenWalletWorkflow, WalletWorkflow } from './wallet/messages.js';
import type { achFollowupWorkflow } from './ach-followup/workflow.js';
import type { checkoutWorkflow } from './checkout/workflow.js';
import type { kycWorkflow } from './kyc/workflow.js';
import type { onboardingWorkflow } from './onboarding/workflow.js';
import type { openWalletWorkflow } from './wallet/open-wallet.js';
import type { provisioningWorkflow } from './provisioning/workflow.js';
import type { walletWorkflow } from './wallet/workflow.js';
type Agrees<Signature, Implementation extends Signature> = Implementation;
export type SignaturesAgree = [
  Agrees<OpenWalletWorkflow, typeof openWalletWorkflow>,
  Agrees<WalletWorkflow, typeof walletWorkflow>,
  Agrees<KycWorkflow, typeof kycWorkflow>,
  Agrees<AchFollowupWorkflow, typeof achFollowupWorkflow>,
  Agrees<OnboardingWorkflow, typeof onboardingWorkflow>,
  Agrees<CheckoutWorkflow, typeof checkoutWorkflow>,
  Agrees<ProvisioningWorkflow, typeof provisioningWorkflow>,
];
