// Whether a reconciliation writes BalanceDrift: only when what it found differs from what the run
// shows (each write is a history event and a visibility row with all its indexes). Search
// attributes carry across continue-as-new, so a run shows what the one before it wrote.

/**
 * The value to write, or undefined when the run shows it already. Unset counts as false: a wallet
 * that never drifted never writes it.
 */
export function balanceDriftToWrite(shown: boolean | undefined, drifted: boolean): boolean | undefined {
  return drifted === (shown ?? false) ? undefined : drifted;
}
