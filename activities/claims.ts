import type { ClaimStore } from '../src/claims/store.js';
import type { ClaimRef } from '../src/claims/ref.js';

// The claim store's housekeeping, as activities: a process deletes what the provider has taken
// (or refused) once it no longer needs it, and a Schedule sweeps what outlived its retention.
export function createClaimActivities({ claims, retentionMs }: { claims: ClaimStore; retentionMs: number }) {
  return {
    /** Idempotent: a claim already gone is no error, so a retry is harmless. */
    async deleteClaims(refs: ClaimRef[]): Promise<void> {
      await claims.delete(refs);
    },
    /** Deletes every claim older than the retention (CLAIM_RETENTION); how many there were. */
    async sweepClaims(): Promise<{ deleted: number }> {
      return { deleted: await claims.sweep(Date.now() - retentionMs) };
    },
  };
}

export type ClaimActivities = ReturnType<typeof createClaimActivities>;
