import { proxyActivities } from '@temporalio/workflow';

// The product's workflows, plus the yardstick the benchmarks compare them with: the smallest
// useful workflow, one activity and a result.
export * from '../../workflows/index.js';

const { echo } = proxyActivities<{ echo(value: string): Promise<string> }>({ startToCloseTimeout: '1 minute' });

export async function minimalWorkflow(value: string): Promise<string> {
  return echo(value);
}

// The wallet flow's floor (its header says what it leaves out).
export { bareWalletWorkflow } from './bare-wallet.js';
