import { proxyActivities } from '@temporalio/workflow';
import type { ClaimActivities } from '../activities/claims.js';

// The claim store's retention sweep, started by a Temporal Schedule (src/claims/schedule.ts):
// claims older than CLAIM_RETENTION are deleted, whatever became of their process (one that
// ended before it could delete its own, or began before processes deleted theirs).

// A sweep may delete many claims: a long attempt, and three of them before the next Schedule's run.
const { sweepClaims } = proxyActivities<ClaimActivities>({ startToCloseTimeout: '10 minutes', retry: { maximumAttempts: 3 } });

export async function claimRetentionWorkflow(): Promise<{ deleted: number }> {
  return sweepClaims();
}
