import { setWorkflowOptions } from '@temporalio/workflow';
import { walletWorkflow } from './workflow.js';

// A wallet never ends, so a version pinned to it would never drain: it runs AUTO_UPGRADE, and every
// change to its code keeps replaying older runs through a patch (docs/changing-a-workflow.md). Set
// here, not in workflow.ts, so that the option travels with the function workflows/index.ts exports.
setWorkflowOptions({ versioningBehavior: 'AUTO_UPGRADE' }, walletWorkflow);

export { walletWorkflow };
