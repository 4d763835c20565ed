import {
  ParentClosePolicy,
  patched,
  proxyActivities,
  proxyLocalActivities,
  startChild,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { WalletActivities } from '../../activities/wallets.js';
import { idempotencyKey } from '../lib/idempotency.js';
import { PROVIDER_WRITE, PROVIDER_WRITE_IN_TASK } from '../lib/activity-options.js';
import { LOCAL_WALLET_CREATE_PATCH } from '../patch-ids.js';
import { ProcessStatus, WalletId } from '../../src/temporal/search-attributes.js';
import { type OpenWalletInput, type OpenWalletResult, walletStartArgs, walletWorkflowId } from './messages.js';
import { walletWorkflow } from './workflow.js';

// The opening as clients ask for it without `follower` (those from before one workflow per wallet,
// and other languages' backends): the wallet is followed by a second workflow, a child it starts.

const provider = proxyActivities<WalletActivities>(PROVIDER_WRITE);
const inTask = proxyLocalActivities<WalletActivities>(PROVIDER_WRITE_IN_TASK);

/** Opens the wallet and starts its follower, `wallet:<walletId>`, as a child; completes with the opening. */
export async function openWithChildFollower(input: OpenWalletInput): Promise<OpenWalletResult> {
  upsertSearchAttributes([{ key: ProcessStatus, value: 'CREATING' }]);
  // In the opening's own workflow task since open-wallet-local-create; before, an activity task.
  const { createWallet } = patched(LOCAL_WALLET_CREATE_PATCH) ? inTask : provider;
  const wallet = await createWallet({
    name: input.name,
    type: input.type,
    notes: input.notes,
    idempotencyKey: idempotencyKey(workflowInfo().workflowId, 'create-wallet'),
  });
  upsertSearchAttributes([{ key: WalletId, value: wallet.id }]);

  const followerId = walletWorkflowId(wallet.id);
  try {
    await startChild(walletWorkflow, {
      workflowId: followerId,
      args: [walletStartArgs({ walletId: wallet.id, name: input.name, opened: true }, input)],
      // The wallet outlives this short workflow.
      parentClosePolicy: ParentClosePolicy.ABANDON,
    });
  } catch (err) {
    // A callback that arrived first already started it through the ingress: nothing to do.
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
  upsertSearchAttributes([{ key: ProcessStatus, value: 'OPENED' }]);
  return {
    walletId: wallet.id,
    srn: wallet.srn,
    depositAddresses: wallet.depositAddresses,
    walletWorkflowId: followerId,
  };
}
