import type { Transaction } from '../../src/provider/schemas/transaction.js';

// A wallet's transactions as the workflow has seen them, counted once each. Pure data and pure
// functions: the workflow carries the state across continue-as-new, and tests exercise the rules
// without Temporal.

export type Kind = 'deposit' | 'interest' | 'transfer' | 'outgoing';

/** What the ledger needs of a transaction; callbacks and polls are trimmed to it before history. */
export type Observation = Pick<Transaction, 'id' | 'createdAt' | 'source' | 'dest' | 'currency' | 'amount' | 'status'> & { confirmedAt?: number | null };

export function observe(tx: Observation): Observation {
  const { id, createdAt, source, dest, currency, amount, status, confirmedAt } = tx;
  return { id, createdAt, source, dest, currency, amount, status, confirmedAt: confirmedAt ?? null };
}
export type SeenVia = 'callback' | 'poll';

export interface Entry {
  id: string;
  currency: string;
  /** Signed from the wallet's point of view: negative when the wallet is the source. */
  amount: number;
  status: string;
  kind: Kind;
  source: string;
  transferId?: string;
  /** Set once the transfer behind a transfer-sourced deposit has been read (or cannot be). */
  transferResolved?: boolean;
  createdAt: number;
  confirmedAt?: number;
  firstSeenVia: SeenVia;
}

export interface LedgerState {
  walletId: string;
  /** Recent entries by id; pending ones are never evicted. */
  entries: Record<string, Entry>;
  /** Ids in the order first seen, for eviction and "recent" listings. */
  order: string[];
  /** Ids of settled entries evicted from `entries`, still remembered so a late repeat counts once. */
  settledIds: string[];
  /** Confirmed amounts of evicted entries, per currency. */
  settledTotals: Record<string, number>;
  stats: { callbacks: number; duplicates: number; stale: number; polls: number; recoveredByPoll: number };
}

export const LIMITS = { recentEntries: 200, settledIds: 5_000 };

export function emptyLedger(walletId: string): LedgerState {
  return { walletId, entries: {}, order: [], settledIds: [], settledTotals: {}, stats: { callbacks: 0, duplicates: 0, stale: 0, polls: 0, recoveredByPoll: 0 } };
}

/**
 * Ordering of statuses: a transaction moves forward only. PENDING is the first observation;
 * CONFIRMED and the terminal states follow. Unknown statuses sit between.
 */
export function statusRank(status: string): number {
  if (status === 'PENDING' || status === 'UNCONFIRMED') return 0;
  if (status === 'CONFIRMED' || status === 'COMPLETED') return 2;
  if (status === 'CANCELLED' || status === 'FAILED' || status === 'REVERSED' || status === 'EXPIRED') return 3;
  return 1;
}

export function isConfirmed(status: string): boolean {
  return status === 'CONFIRMED' || status === 'COMPLETED';
}

export type Outcome = 'new' | 'advanced' | 'duplicate' | 'stale';

// The settled ids travel as an array (the state is plain data); lookups use a Set built from it
// once per state object, so that recording stays flat however full the ledger is.
const settledSets = new WeakMap<LedgerState, Set<string>>();
function settled(state: LedgerState): Set<string> {
  let set = settledSets.get(state);
  if (!set) {
    set = new Set(state.settledIds);
    settledSets.set(state, set);
  }
  return set;
}

/** What the ledger would do with this observation, without changing anything. */
export function classify(state: LedgerState, tx: Pick<Transaction, 'id' | 'status'>): Outcome {
  if (settled(state).has(tx.id)) return 'duplicate';
  const known = state.entries[tx.id];
  if (!known) return 'new';
  const a = statusRank(known.status);
  const b = statusRank(tx.status);
  if (b > a) return 'advanced';
  return b === a ? 'duplicate' : 'stale';
}

/** The sign of a transaction for this wallet, and its kind before any transfer is resolved. */
export function direction(walletId: string, tx: Pick<Transaction, 'source' | 'dest'>): { sign: 1 | -1; kind: Kind } {
  const srn = `wallet:${walletId}`;
  if (tx.source === srn && tx.dest !== srn) return { sign: -1, kind: 'outgoing' };
  if (tx.source.startsWith('transfer:')) return { sign: 1, kind: 'transfer' };
  return { sign: 1, kind: 'deposit' };
}

/** Records an observation; returns what happened. `kind` lets the caller pass a resolved kind. */
export function record(state: LedgerState, tx: Observation, via: SeenVia, kind?: Kind, transferId?: string): Outcome {
  if (via === 'callback') state.stats.callbacks += 1;
  const outcome = classify(state, tx);
  // Counted for callbacks only: a poll that meets what a callback brought is no repeat of the provider's.
  if (outcome === 'duplicate' && via === 'callback') state.stats.duplicates += 1;
  if (outcome === 'stale' && via === 'callback') state.stats.stale += 1;
  if (outcome === 'duplicate' || outcome === 'stale') return outcome;

  if (outcome === 'new') {
    const d = direction(state.walletId, tx);
    state.entries[tx.id] = {
      id: tx.id,
      currency: tx.currency,
      amount: d.sign * Math.abs(tx.amount),
      status: tx.status,
      kind: kind ?? d.kind,
      source: tx.source,
      ...(transferId ? { transferId } : {}),
      createdAt: tx.createdAt,
      ...(tx.confirmedAt ? { confirmedAt: tx.confirmedAt } : {}),
      firstSeenVia: via,
    };
    state.order.push(tx.id);
    if (via === 'poll') state.stats.recoveredByPoll += 1;
  } else {
    const e = state.entries[tx.id]!;
    e.status = tx.status;
    if (tx.confirmedAt) e.confirmedAt = tx.confirmedAt;
    if (via === 'poll') state.stats.recoveredByPoll += 1;
  }
  evict(state);
  return outcome;
}

function evict(state: LedgerState): void {
  while (state.order.length > LIMITS.recentEntries) {
    // Only settled entries leave: a pending or in-between one must still be there when it settles.
    const idx = state.order.findIndex((id) => statusRank(state.entries[id]!.status) >= 2);
    if (idx < 0) return;
    const [id] = state.order.splice(idx, 1) as [string];
    const e = state.entries[id]!;
    if (isConfirmed(e.status)) state.settledTotals[e.currency] = (state.settledTotals[e.currency] ?? 0) + e.amount;
    delete state.entries[id];
    state.settledIds.push(id);
    settled(state).add(id);
    if (state.settledIds.length > LIMITS.settledIds) settled(state).delete(state.settledIds.shift()!);
  }
}

export interface Balance {
  confirmed: number;
  pending: number;
}

/** Balances derived from the entries: confirmed, and pending (seen but not yet confirmed). */
export function balances(state: LedgerState): Record<string, Balance> {
  const out: Record<string, Balance> = {};
  const at = (c: string) => (out[c] ??= { confirmed: 0, pending: 0 });
  for (const [c, v] of Object.entries(state.settledTotals)) at(c).confirmed += v;
  for (const e of Object.values(state.entries)) {
    if (isConfirmed(e.status)) at(e.currency).confirmed += e.amount;
    else if (statusRank(e.status) < 2) at(e.currency).pending += e.amount;
  }
  for (const b of Object.values(out)) {
    b.confirmed = round(b.confirmed);
    b.pending = round(b.pending);
  }
  return out;
}

/** Sums of decimal amounts drift in binary floating point; 10 decimals covers every currency here. */
function round(n: number): number {
  return Math.round(n * 1e10) / 1e10;
}

export function recent(state: LedgerState, limit = 50): Entry[] {
  return state.order.slice(-limit).reverse().map((id) => state.entries[id]!);
}
