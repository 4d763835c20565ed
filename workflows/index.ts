// Every workflow the worker runs. Workflow code is deterministic: it imports only
// @temporalio/workflow, pure helpers and types.
export { openWalletWorkflow } from './open-wallet';
export { walletWorkflow } from './wallet';
