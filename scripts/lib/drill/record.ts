import type { Delivery } from '../../../src/sandbox/callbacks.js';

// What a drill did and saw, as it goes: each transaction a wallet must count (and when it did),
// the faults injected, and the processes started. The report and the plot are read from it.

/** A fault the drill injects. Provider errors are counted by the sandbox; the rest are marked here. */
export type FaultKind = 'provider error' | 'callback dropped' | 'callback repeated' | 'chaos';

/** A status of a transaction that one wallet must come to show. */
export interface Expectation {
  /** The callback's number in the drill: a transaction calls back once per status. */
  callback: number;
  walletId: string;
  txId: string;
  status: string;
  /** When the drill asked the sandbox for the change whose callback this is. */
  sentAt: number;
  /** What happened to its callback. */
  fault?: 'callback dropped' | 'callback repeated';
  /** When a query of the wallet first showed it. */
  countedAt?: number;
}

export interface Mark {
  at: number;
  kind: FaultKind;
  /** For chaos: whether the command exited 0. */
  ok?: boolean;
}

/** A named stretch of the drill (a test's fault and its recovery), from its start to the next one's. */
export interface Phase {
  name: string;
  at: number;
}

export interface ProcessRun {
  name: string;
  done: boolean;
  outcome?: string;
}

export class DrillRecord {
  readonly startedAt = Date.now();
  readonly expectations: Expectation[] = [];
  readonly marks: Mark[] = [];
  readonly processes: ProcessRun[] = [];
  readonly phases: Phase[] = [];
  moves = 0;

  /** A new phase starts now; the one before ends. */
  phase(name: string): void {
    this.phases.push({ name, at: Date.now() });
  }

  /** The wallets a transaction touches must each come to show its status. */
  expect(walletIds: string[], tx: { id: string; status: string }, sentAt: number, delivery?: Delivery): void {
    this.moves += 1;
    const fault = !delivery
      ? undefined
      : delivery.outcomes.includes('dropped')
        ? ('callback dropped' as const)
        : delivery.outcomes.length > 1
          ? ('callback repeated' as const)
          : undefined;
    if (fault) this.marks.push({ at: sentAt, kind: fault });
    for (const walletId of walletIds)
      this.expectations.push({
        callback: this.moves,
        walletId,
        txId: tx.id,
        status: tx.status,
        sentAt,
        ...(fault ? { fault } : {}),
      });
  }

  /** Latencies from the sandbox's change to the wallet's count, in ms, with when they started. */
  latencies(): Array<{ at: number; ms: number; fault?: Expectation['fault'] }> {
    return this.expectations
      .filter((e) => e.countedAt !== undefined)
      .map((e) => ({ at: e.sentAt, ms: e.countedAt! - e.sentAt, ...(e.fault ? { fault: e.fault } : {}) }));
  }
}
