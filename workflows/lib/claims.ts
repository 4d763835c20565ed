import { patched, proxyActivities } from '@temporalio/workflow';
import type { ClaimActivities } from '../../activities/claims.js';
import type { ClaimRef } from '../messages/common.js';
import { HOUSEKEEPING } from './activity-options.js';
import type { SendFailure } from './refusal.js';

// What a process does with a claim it is done with: deletes it from the claim store. New
// commands in running processes, so behind a patch: a run that reached this point before the
// change replays without them, and the retention sweep deletes its claims later.

const housekeeping = proxyActivities<ClaimActivities>(HOUSEKEEPING);

/**
 * Since this patch a submission that was not delivered (its retries gave up: the provider or the
 * claim store stayed away) keeps its claim, so that the end user can hand the same claim in again;
 * before it, its claim was deleted as a refused one's is. The retention sweep takes it otherwise.
 */
export const KEEP_UNDELIVERED_CLAIMS_PATCH = 'keep-undelivered-claims';

export async function doneWithClaims(refs: ClaimRef[]): Promise<void> {
  if (refs.length === 0 || !patched('delete-claims-after-use')) return;
  await housekeeping.deleteClaims(refs);
}

/** Whether a submission that failed so keeps its claim for another try (only one not delivered). */
export function keepsClaim(failure: SendFailure): boolean {
  return 'notDelivered' in failure && patched(KEEP_UNDELIVERED_CLAIMS_PATCH);
}
