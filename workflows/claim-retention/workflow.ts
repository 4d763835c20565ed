import { proxyActivities } from '@temporalio/workflow';
import type { ClaimActivities } from '../../activities/claims.js';
import { CLAIM_SWEEP } from '../lib/activity-options.js';

// The claim store's retention sweep, started by a Temporal Schedule (src/claims/schedule.ts):
// claims older than CLAIM_RETENTION are deleted, whatever became of their process (one that
// ended before it could delete its own, or began before processes deleted theirs).

const { sweepClaims } = proxyActivities<ClaimActivities>(CLAIM_SWEEP);

export async function claimRetentionWorkflow(): Promise<{ deleted: number }> {
  return sweepClaims();
}
