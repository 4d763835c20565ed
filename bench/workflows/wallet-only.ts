// The wallet's workflow alone in a bundle, with the same interceptors: what a cached wallet costs
// when a worker's bundle holds nothing else (a task queue of wallets of its own; docs/capacity.md).
export { walletWorkflow } from '../../workflows/wallet.js';
export { minimalWorkflow } from './index.js';
