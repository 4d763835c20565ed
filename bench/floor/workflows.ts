import { condition, defineSignal, setHandler } from '@temporalio/workflow';

// The floor a cached workflow's memory is measured against: the least a workflow can be while it
// waits (a signal handler and a condition), in a bundle of its own with nothing else in it.

export const releaseSignal = defineSignal('release');

export async function floorWorkflow(): Promise<void> {
  let released = false;
  setHandler(releaseSignal, () => void (released = true));
  await condition(() => released);
}
