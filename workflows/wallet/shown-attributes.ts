// What a run writes to its search attributes, only where it changes what the run shows: each write
// is a history event and a visibility row with all its indexes. Search attributes carry across
// continue-as-new, so a run shows what the one before it wrote.

/** Whether the run already shows it follows this wallet (ProcessStatus TRACKING, its WalletId). */
export function trackingShown(
  shown: { status: string | undefined; walletId: string | undefined },
  walletId: string,
): boolean {
  return shown.status === 'TRACKING' && shown.walletId === walletId;
}

/**
 * The BalanceDrift a reconciliation writes, or undefined when the run shows it already. Unset counts
 * as false: a wallet that never drifted never writes it.
 */
export function balanceDriftToWrite(shown: boolean | undefined, drifted: boolean): boolean | undefined {
  return drifted === (shown ?? false) ? undefined : drifted;
}
