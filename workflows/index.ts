// Every workflow the worker runs. Workflow code is deterministic: it imports only
// @temporalio/workflow, pure helpers and types.
export { achFollowupWorkflow } from './ach-followup';
export { onboardingWorkflow } from './onboarding';
export { checkoutWorkflow } from './checkout';
export { kycWorkflow } from './kyc';
export { openWalletWorkflow } from './open-wallet';
export { provisioningWorkflow } from './provisioning';
export { walletWorkflow } from './wallet';
