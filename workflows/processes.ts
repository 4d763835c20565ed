// Every workflow but the wallet's two, whose versioning differs in ./index.ts and ./unversioned.ts.
export { achFollowupWorkflow } from './ach-followup/workflow.js';
export { onboardingWorkflow } from './onboarding/workflow.js';
export { checkoutWorkflow } from './checkout/workflow.js';
export { kycWorkflow } from './kyc/workflow.js';
export { provisioningWorkflow } from './provisioning/workflow.js';
export { claimRetentionWorkflow } from './claim-retention/workflow.js';
