import { setWorkflowOptions } from '@temporalio/workflow';
import { openWalletWorkflow } from './open-wallet.js';
import { walletWorkflow } from './workflow.js';

// A wallet never ends, so a version pinned to it would never drain: its follower, and its opening,
// which follows the wallet it opened until it continues as new, run AUTO_UPGRADE, and every change to
// their code keeps replaying older runs through a patch (docs/changing-a-workflow.md). Set here, not
// in workflow.ts, so that the option travels with the functions workflows/index.ts exports.
setWorkflowOptions({ versioningBehavior: 'AUTO_UPGRADE' }, walletWorkflow);
setWorkflowOptions({ versioningBehavior: 'AUTO_UPGRADE' }, openWalletWorkflow);

export { openWalletWorkflow, walletWorkflow };
