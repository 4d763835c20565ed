import { type OpenWalletResult, type OpenWalletWorkflow, walletStartArgs } from '../../workflows/wallet/messages.js';
import type { Stack } from './stack.js';

/**
 * Opens a wallet as clients before one workflow per wallet did, and as other languages' backends
 * still may: `openWalletWorkflow` without `follower`, which starts its follower `wallet:<walletId>`
 * as a child, creates the wallet with the ingress's plain callback URL, and completes.
 */
export async function openAsBefore(stack: Stack, name: string): Promise<OpenWalletResult> {
  const result = await stack.client.workflow.execute<OpenWalletWorkflow>('openWalletWorkflow', {
    workflowId: `open-wallet:${name}`,
    taskQueue: stack.taskQueue,
    args: [walletStartArgs({ name }, { pollIntervalMs: stack.config.wallet.pollIntervalMs })],
  });
  if (!('srn' in result)) throw new Error(`openWalletWorkflow for ${name} did not answer an opening`);
  return result;
}
