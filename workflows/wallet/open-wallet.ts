import { condition, proxyLocalActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { WalletActivities } from '../../activities/wallets.js';
import { idempotencyKey } from '../lib/idempotency.js';
import { PROVIDER_WRITE_IN_TASK } from '../lib/activity-options.js';
import { validateStart } from '../lib/process.js';
import { checkOpenWalletInput } from './checks.js';
import {
  type OpenWalletInput,
  type OpenWalletResult,
  openedUpdate,
  type WalletResult,
  walletStartArgs,
} from './messages.js';
import { openWithChildFollower } from './open-with-child.js';
import { walletWorkflow } from './workflow.js';

// Opens a wallet for a caller's user at the provider, then follows it in this same workflow for as
// long as the wallet lives; clients that ask for no `follower` get a child follower instead
// (./open-with-child.ts).

const inTask = proxyLocalActivities<WalletActivities>(PROVIDER_WRITE_IN_TASK);

export async function openWalletWorkflow(input: OpenWalletInput): Promise<OpenWalletResult | WalletResult> {
  // Checked only: the run goes on with its input as given, so that its commands stay as recorded.
  validateStart(checkOpenWalletInput, input);
  // Decided by the input, which a run's history holds: a recorded run replays the branch it took.
  return input.follower === 'this-workflow' ? openAndFollow(input) : openWithChildFollower(input);
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
