import { type Client, ScheduleAlreadyRunning, ScheduleOverlapPolicy } from '@temporalio/client';
import type { Config } from '../config.js';

// The Schedule that runs the claim store's retention sweep every CLAIM_SWEEP_INTERVAL on the
// worker's task queue. Made by each worker at start, and brought up to date when it exists:
// several workers make one Schedule.

export function claimRetentionScheduleId(taskQueue: string): string {
  return `claim-retention:${taskQueue}`;
}

export async function ensureClaimRetentionSchedule(
  client: Client,
  config: Pick<Config, 'claims'> & { temporal: { taskQueue: string } },
): Promise<string> {
  const scheduleId = claimRetentionScheduleId(config.temporal.taskQueue);
  const every = `${Math.round(config.claims.sweepIntervalMs / 1000)}s`;
  const options = {
    scheduleId,
    spec: { intervals: [{ every }] },
    action: {
      type: 'startWorkflow' as const,
      workflowType: 'claimRetentionWorkflow',
      taskQueue: config.temporal.taskQueue,
      args: [],
    },
    policies: { overlap: ScheduleOverlapPolicy.SKIP },
  };
  try {
    await client.schedule.create(options);
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
    await client.schedule
      .getHandle(scheduleId)
      .update((previous) => ({ ...previous, spec: { intervals: [{ every }] } }));
  }
  return scheduleId;
}
