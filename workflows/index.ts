// Every workflow the worker runs. Workflow code is deterministic: it imports only
// @temporalio/workflow, pure helpers and types.
export { achFollowupWorkflow } from './ach-followup.js';
export { onboardingWorkflow } from './onboarding.js';
export { checkoutWorkflow } from './checkout.js';
export { kycWorkflow } from './kyc.js';
export { openWalletWorkflow } from './open-wallet.js';
export { provisioningWorkflow } from './provisioning.js';
export { walletWorkflow } from './wallet.js';
export { claimRetentionWorkflow } from './claim-retention.js';

// The signatures clients start them by (workflows/messages) are these functions' own.
import type { AchFollowupWorkflow } from './messages/ach-followup.js';
import type { CheckoutWorkflow } from './messages/checkout.js';
import type { KycWorkflow } from './messages/kyc.js';
import type { OnboardingWorkflow } from './messages/onboarding.js';
import type { ProvisioningWorkflow } from './messages/provisioning.js';
import type { OpenWalletWorkflow, WalletWorkflow } from './messages/wallet.js';
import type { achFollowupWorkflow } from './ach-followup.js';
import type { checkoutWorkflow } from './checkout.js';
import type { kycWorkflow } from './kyc.js';
import type { onboardingWorkflow } from './onboarding.js';
import type { openWalletWorkflow } from './open-wallet.js';
import type { provisioningWorkflow } from './provisioning.js';
import type { walletWorkflow } from './wallet.js';
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
