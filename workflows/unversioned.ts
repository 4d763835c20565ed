// Every workflow, for a worker with WORKER_VERSIONING=off (a server without Worker Deployments):
// the wallet's follower without its versioning option (./wallet/versioning.ts), which the server
// refuses from a worker that is not versioned. Nothing else differs from ./index.ts.
export * from './processes.js';
export { walletWorkflow } from './wallet/workflow.js';
