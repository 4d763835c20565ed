// Every workflow, for a worker with WORKER_VERSIONING=off: the wallet's follower without its
// versioning option (./wallet/versioning.ts), which a server refuses from an unversioned worker.
export * from './processes.js';
export { walletWorkflow } from './wallet/workflow.js';
