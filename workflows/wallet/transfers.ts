import { ActivityFailure, log, proxyActivities } from '@temporalio/workflow';
import type { WalletActivities } from '../../activities/wallets.js';
import { INTEREST_PAYMENTS_SRN } from '../../src/provider/srn.js';
import { BOUNDED_LOOKUP } from '../lib/activity-options.js';
import type { LedgerState } from './ledger.js';
import { providerRefusal } from '../lib/refusal.js';

// A deposit that comes from a transfer counts at once; whether it is an interest payout is learnt
// in the background, by reading the transfer (docs/provider-contract.md §2.5): callbacks are never held up by it.

// Bounded: a transfer that cannot be read now is tried again at the next pass (or the next run).
const lookups = proxyActivities<WalletActivities>(BOUNDED_LOOKUP);

/** Returns the pass that starts a lookup for every deposit whose transfer is not resolved yet. */
export function transferLookups(ledger: LedgerState): () => void {
  const resolving = new Set<string>();

  async function resolve(txId: string, transferId: string): Promise<void> {
    resolving.add(txId);
    try {
      const transfer = await lookups.readTransferSummary(transferId);
      const entry = ledger.entries[txId];
      if (entry) {
        entry.transferResolved = true;
        if (transfer.source === INTEREST_PAYMENTS_SRN) entry.kind = 'interest';
      }
    } catch (err) {
      if (!(err instanceof ActivityFailure)) throw err;
      // Refused (not found, say): it never will be read; a plain transfer it stays.
      const final = providerRefusal(err) !== null;
      const entry = ledger.entries[txId];
      if (final && entry) entry.transferResolved = true;
      const message = final
        ? 'the transfer cannot be read; the deposit stays a plain transfer'
        : 'the transfer could not be read yet; will try again';
      log.warn(message, { transferId, error: err.cause?.message });
    } finally {
      resolving.delete(txId);
    }
  }

  return () => {
    for (const entry of Object.values(ledger.entries)) {
      if (entry.transferId && !entry.transferResolved && !resolving.has(entry.id))
        void resolve(entry.id, entry.transferId);
    }
  };
}
