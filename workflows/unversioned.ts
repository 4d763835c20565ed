// Every workflow, for a worker with WORKER_VERSIONING=off: the wallet's two without their
// versioning option (./wallet/versioning.ts), which a server refuses from an unversioned worker.
export * from './processes.js';
export { openWalletWorkflow } from './wallet/open-wallet.js';
export { walletWorkflow } from './wallet/workflow.js';
