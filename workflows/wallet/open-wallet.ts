import {
  condition,
  ParentClosePolicy,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
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
import { validateStart } from '../lib/process.js';
import { checkOpenWalletInput } from './checks.js';
import {
  type OpenWalletInput,
  type OpenWalletResult,
  openedUpdate,
  type WalletResult,
  walletStartArgs,
  walletWorkflowId,
} from './messages.js';
import { walletWorkflow } from './workflow.js';

// Opens a wallet for a caller's user at the provider, then follows it in this same workflow, or,
// as clients that predate that ask, hands it to a child workflow that follows it.

const provider = proxyActivities<WalletActivities>(PROVIDER_WRITE);
const inTask = proxyLocalActivities<WalletActivities>(PROVIDER_WRITE_IN_TASK);

export async function openWalletWorkflow(input: OpenWalletInput): Promise<OpenWalletResult | WalletResult> {
  // Checked only: the run goes on with its input as given, so that its commands stay as recorded.
  validateStart(checkOpenWalletInput, input);
  // Decided by the input, which a run's history holds: a recorded run replays the branch it took.
  if (input.follower === 'this-workflow') return openAndFollow(input);
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

/**
 * One workflow for the wallet's whole life: created at the provider with callbacks addressed to this
 * workflow by name, answered to the opener through `opened`, then followed here.
 */
async function openAndFollow(input: OpenWalletInput): Promise<WalletResult> {
  const answer: { opening?: OpenWalletResult } = {};
  // Set before the first await: an update-with-start's update is handled in the run's first task.
  setHandler(openedUpdate, async () => {
    await condition(() => answer.opening !== undefined);
    return answer.opening!;
  });
  const { workflowId } = workflowInfo();
  const wallet = await inTask.createWallet({
    name: input.name,
    type: input.type,
    notes: input.notes,
    idempotencyKey: idempotencyKey(workflowId, 'create-wallet'),
    callbacksByName: true,
  });
  const opening = {
    walletId: wallet.id,
    srn: wallet.srn,
    depositAddresses: wallet.depositAddresses,
    walletWorkflowId: workflowId,
  };
  answer.opening = opening;
  const { maxHistoryEvents } = input;
  return walletWorkflow(
    walletStartArgs(
      {
        walletId: wallet.id,
        name: input.name,
        opened: true,
        opening,
        ...(maxHistoryEvents ? { maxHistoryEvents } : {}),
      },
      input,
    ),
  );
}
