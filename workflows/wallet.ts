import {
  ActivityFailure,
  allHandlersFinished,
  condition,
  continueAsNew,
  log,
  proxyActivities,
  setHandler,
  sleep,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { WalletActivities } from '../activities/wallets';
import type { Transaction } from '../src/provider/schemas/transaction';
import { INTEREST_PAYMENTS_SRN, transferIdFromSrn } from '../src/provider/srn';
import { ProcessStatus, WalletId } from '../src/temporal/search-attributes';
import { balances, classify, emptyLedger, recent, record, type SeenVia } from './lib/ledger';
import { transactionSignal, type WalletInput, walletQuery, type WalletView } from './messages/wallet';

// Follows one wallet for as long as it lives: every transaction the provider reports, by
// callback or by polling, is counted once, in order of status (pending, then confirmed);
// interest payouts are recognised through the transfer they come from.

const provider = proxyActivities<WalletActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1 minute' },
});
// A poll that fails is simply tried again at the next interval; it must not hold up callbacks.
const poller = proxyActivities<WalletActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumAttempts: 3 },
});

export async function walletWorkflow(input: WalletInput): Promise<never> {
  const ledger = input.carried ?? emptyLedger(input.walletId);
  const inbox: Array<{ tx: Transaction; via: SeenVia }> = [...(input.inbox ?? [])];
  let pollDue = false;
  let resolving = 0;

  setHandler(transactionSignal, (tx) => {
    inbox.push({ tx, via: 'callback' });
  });
  setHandler(walletQuery, (): WalletView => ({
    walletId: ledger.walletId,
    name: input.name,
    balances: balances(ledger),
    recentTransactions: recent(ledger, 20),
    stats: { ...ledger.stats },
    queued: inbox.length,
  }));
  upsertSearchAttributes([
    { key: ProcessStatus, value: 'TRACKING' },
    { key: WalletId, value: input.walletId },
  ]);

  void (async () => {
    for (;;) {
      await sleep(input.pollIntervalMs);
      pollDue = true;
    }
  })();

  // A transfer-sourced deposit counts at once; whether it is interest is learnt in the background.
  const resolveTransfer = async (txId: string, transferId: string) => {
    resolving += 1;
    try {
      const t = await provider.readTransferSummary(transferId);
      const entry = ledger.entries[txId];
      if (entry && t.source === INTEREST_PAYMENTS_SRN) entry.kind = 'interest';
    } catch (err) {
      if (!(err instanceof ActivityFailure)) throw err;
      log.warn('transfer could not be resolved; the deposit stays counted as a transfer', { transferId, error: err.cause?.message });
    } finally {
      resolving -= 1;
    }
  };

  for (;;) {
    await condition(() => inbox.length > 0 || pollDue);

    if (pollDue) {
      pollDue = false;
      ledger.stats.polls += 1;
      try {
        const seen = await poller.listWalletTransactions(input.walletId);
        // Oldest first, and only what would change the ledger: a poll is no callback.
        for (const tx of [...seen].reverse()) {
          const outcome = classify(ledger, tx);
          if (outcome === 'new' || outcome === 'advanced') inbox.push({ tx, via: 'poll' });
        }
      } catch (err) {
        if (!(err instanceof ActivityFailure)) throw err;
        log.warn('polling the wallet failed; will poll again at the next interval', { error: err.cause?.message });
      }
    }

    while (inbox.length > 0) {
      const { tx, via } = inbox.shift()!;
      const transferId = transferIdFromSrn(tx.source);
      const outcome = record(ledger, tx, via, undefined, transferId);
      if (outcome === 'new' && transferId) void resolveTransfer(tx.id, transferId);
    }

    const info = workflowInfo();
    if (info.continueAsNewSuggested || info.historyLength >= (input.maxHistoryEvents ?? 10_000)) {
      await condition(() => resolving === 0 && allHandlersFinished());
      await continueAsNew<typeof walletWorkflow>({ ...input, carried: ledger, inbox });
    }
  }
}
