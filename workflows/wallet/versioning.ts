import { setWorkflowOptions } from '@temporalio/workflow';
import { walletWorkflow } from './workflow.js';

// A wallet never ends, so it cannot stay pinned to the version it started on: that version would
// never drain. It runs AUTO_UPGRADE: each workflow task goes to the deployment's current version,
// and every change to the wallet's code keeps replaying the runs before it with a patch
// (workflows/patches.ts), as before Worker Versioning (docs/changing-a-workflow.md). Set here, not in
// workflow.ts, so that the option travels with the function that workflows/index.ts exports.
setWorkflowOptions({ versioningBehavior: 'AUTO_UPGRADE' }, walletWorkflow);

export { walletWorkflow };
