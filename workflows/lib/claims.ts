import { patched, proxyActivities } from '@temporalio/workflow';
import type { ClaimActivities } from '../../activities/claims.js';
import type { ClaimRef } from './messages.js';
import { DELETE_CLAIMS_PATCH } from '../patch-ids.js';
import { HOUSEKEEPING } from './activity-options.js';

// What a process does with a claim it is done with: deletes it from the claim store. New
// commands in running processes, so behind a patch: a run that reached this point before the
// change replays without them, and the retention sweep deletes its claims later.

const housekeeping = proxyActivities<ClaimActivities>(HOUSEKEEPING);

export async function doneWithClaims(refs: ClaimRef[]): Promise<void> {
  if (refs.length === 0 || !patched(DELETE_CLAIMS_PATCH)) return;
  await housekeeping.deleteClaims(refs);
}
