// Every workflow but the wallet's follower, whose versioning option differs between the two entry
// points that export it: ./index.ts (versioned workers) and ./unversioned.ts (WORKER_VERSIONING=off).
export { achFollowupWorkflow } from './ach-followup/workflow.js';
export { onboardingWorkflow } from './onboarding/workflow.js';
export { checkoutWorkflow } from './checkout/workflow.js';
export { kycWorkflow } from './kyc/workflow.js';
export { openWalletWorkflow } from './wallet/open-wallet.js';
export { provisioningWorkflow } from './provisioning/workflow.js';
export { claimRetentionWorkflow } from './claim-retention/workflow.js';
