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
import type { OpenWalletWorkflow, WalletWorkflow } from './messages/wallet.js';
import type { openWalletWorkflow } from './open-wallet.js';
import type { walletWorkflow } from './wallet.js';
type Agrees<Signature, Implementation extends Signature> = Implementation;
export type SignaturesAgree = [Agrees<OpenWalletWorkflow, typeof openWalletWorkflow>, Agrees<WalletWorkflow, typeof walletWorkflow>];
