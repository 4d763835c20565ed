import type { z } from 'zod';
import type { balance, entry, entryKind, ledgerState, ledgerStats, seenVia } from './messages.schema.js';
import { absolute, add, type Decimal, decimal, negate, subtract } from '../../src/decimal.js';
import type { Transaction } from '../../src/provider/schemas/transaction.js';
import { walletSrn } from '../../src/provider/srn.js';
import {
  type Observation,
  plausibleTime,
  POLL_PAGE_LIMIT,
  type PollCursor,
} from '../../src/provider/transaction-observation.js';
import {
  AMOUNT,
  CREATED_AT,
  CURRENCY,
  forgetRecord,
  heldAsideRecord,
  NO_TIME,
  putRecord,
  recordCount,
  recordOf,
  STATUS,
} from './settled-records.js';

// A wallet's transactions as the workflow has seen them, counted once each: pure data and pure
// functions, carried across continue-as-new. Recent entries are kept whole; a settled one leaves a
// compact record for the window below, so that a late REVERSED notice is applied and a resent
// CONFIRMED recognised. An unknown transaction created before the horizon (older than the window,
// or than the oldest record kept) cannot be told apart from a repeat, and is not counted.

export type Kind = z.infer<typeof entryKind>;

export { type Observation, observe, type RecordedObservation } from '../../src/provider/transaction-observation.js';
export type SeenVia = z.infer<typeof seenVia>;

/** A transaction as the ledger counted it (its schema: workflows/wallet/messages.schema.ts). */
export type Entry = z.output<typeof entry>;

export type { SettledRecord } from './settled-records.js';

export type LedgerStats = z.output<typeof ledgerStats>;

/** Also what a run carries across continue-as-new, and what an ended follower returns. */
export type LedgerState = z.output<typeof ledgerState>;

const DAY = 86_400_000;

/**
 * 180 days: the provider resends callbacks on request and reverses settled transactions; card
 * chargebacks come within 120 days and ACH returns within 60, so half a year covers both with
 * margin. 10,000 records (about 450 KB carried) bound a very busy wallet; past that the horizon
 * moves up to the oldest record still kept.
 */
export const LIMITS = {
  recentEntries: 200,
  settledRecords: 10_000,
  windowMs: 180 * DAY,
  /**
   * Pending entries kept whole: past this count, or older than this age, the oldest leave the
   * entries for a record (`dropPending`), so that what a run carries stays bounded. A blockchain
   * deposit settles in hours; a thousand pending or half a year pending is a stuck transaction.
   */
  pendingEntries: 1_000,
  pendingAgeMs: 180 * DAY,
};

const CURRENCY_CODE = /^[A-Z0-9]{2,10}$/;

/** A record keyed by ids or currency codes: no prototype, so no key can reach Object.prototype. */
export function table<T>(from: Record<string, T> = {}): Record<string, T> {
  return Object.assign(Object.create(null) as Record<string, T>, from);
}

export function emptyLedger(walletId: string): LedgerState {
  return {
    version: 3,
    walletId,
    entries: table(),
    order: [],
    settled: table(),
    horizon: 0,
    settledTotals: table(),
    stats: { callbacks: 0, duplicates: 0, stale: 0, polls: 0, recoveredByPoll: 0, expired: 0, rejected: 0 },
  };
}

/**
 * A carried table made one: its prototype dropped in place rather than copied, since the run's
 * input keeps the carried object for as long as the run is cached, and a copy would hold every
 * key of the ledger twice (bench/ledger-memory.ts).
 */
function tableInPlace<T>(carried: Record<string, T>): Record<string, T> {
  return Object.setPrototypeOf(carried, null) as Record<string, T>;
}

/**
 * The ledger a new run starts from, as the previous run carried it: its tables without a prototype
 * (the entries and records are the carried ones, changed in place), and without the float totals of
 * a legacy run (wallet/legacy-float-ledger.ts), which belong to it.
 */
export function ledgerFromCarried(carried: LedgerState): LedgerState {
  const { floatTotals: _summedByThePreviousRun, ...current } = carried;
  return {
    ...current,
    entries: tableInPlace(carried.entries),
    settled: tableInPlace(carried.settled),
    settledTotals: table(carried.settledTotals),
    ...(carried.approximate ? { approximate: [...carried.approximate] } : {}),
    stats: { ...carried.stats },
  };
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

export type Outcome = 'new' | 'advanced' | 'duplicate' | 'stale' | 'expired' | 'rejected';

function compare(known: string, seen: string): 'advanced' | 'duplicate' | 'stale' {
  const knownRank = statusRank(known);
  const seenRank = statusRank(seen);
  if (seenRank > knownRank) return 'advanced';
  return seenRank === knownRank ? 'duplicate' : 'stale';
}

/** What the ledger would do with this observation, without changing anything. */
export function classify(
  state: LedgerState,
  tx: Pick<Transaction, 'id' | 'status' | 'createdAt' | 'currency'>,
  now?: number,
): Outcome {
  if (!CURRENCY_CODE.test(tx.currency)) return 'rejected';
  const entry = Object.hasOwn(state.entries, tx.id) ? state.entries[tx.id] : undefined;
  if (entry) return compare(entry.status, tx.status);
  const settled = Object.hasOwn(state.settled, tx.id) ? state.settled[tx.id] : undefined;
  if (settled) return compare(settled[STATUS], tx.status);
  // A time that cannot be one says nothing about the transaction's age: it is counted.
  if (now !== undefined && !plausibleTime(tx.createdAt, now)) return 'new';
  return tx.createdAt < state.horizon ? 'expired' : 'new';
}

export interface Direction {
  sign: 1 | 0 | -1;
  kind: Kind;
}

/**
 * The sign of a transaction for this wallet, and its kind before any transfer is resolved. A
 * transfer from the wallet to itself moves no balance: its sign is 0 (it is still recorded, so
 * that its repeats are recognised).
 */
export function direction(walletId: string, tx: Pick<Transaction, 'source' | 'dest'>): Direction {
  const srn = walletSrn(walletId);
  if (tx.source === srn && tx.dest === srn) return { sign: 0, kind: 'transfer' };
  if (tx.source === srn) return { sign: -1, kind: 'outgoing' };
  if (tx.source.startsWith('transfer:')) return { sign: 1, kind: 'transfer' };
  return { sign: 1, kind: 'deposit' };
}

/** Whether the wallet is a side of the transaction: its destination or its source. */
export function touchesWallet(walletId: string, tx: Pick<Transaction, 'source' | 'dest'>): boolean {
  const srn = walletSrn(walletId);
  return tx.dest === srn || tx.source === srn;
}

/** How notices are counted: today's rules, or those a legacy run wraps them with (wallet/legacy-float-ledger.ts). */
export interface Counting {
  /** The sign and kind of a transaction for this wallet. */
  direction(walletId: string, tx: Pick<Transaction, 'source' | 'dest'>): Direction;
  /** Told each time a confirmed amount enters (1) or leaves (-1) the settled totals. */
  settledTotalMoved(currency: string, amount: Decimal, sign: 1 | -1): void;
}

export const COUNTED_TODAY: Counting = { direction, settledTotalMoved: () => {} };

export interface RecordOptions {
  /** A resolved kind. */
  kind?: Kind;
  /** The transfer behind a transfer-sourced deposit, to be read in the background. */
  transferId?: string;
  /** The workflow's now: a createdAt that cannot be a time by it is held aside (`plausibleTime`). */
  now?: number;
  /** The records of transactions held aside stay as long as the wallet, outside the record bound (`evict`). */
  keepHeldAside?: boolean;
  /** The records are trimmed to their bound even while more entries are pending than the recent ones kept (`evict`). */
  boundRecordsWhilePending?: boolean;
  /** COUNTED_TODAY unless given. */
  counting?: Counting;
}

/** Classifies an observation and counts it in the stats, changing nothing else. */
export function tally(state: LedgerState, tx: Observation, via: SeenVia, now: number | undefined): Outcome {
  if (via === 'callback') state.stats.callbacks += 1;
  const outcome = classify(state, tx, now);
  // Counted for callbacks only: a poll that meets what a callback brought is no repeat of the provider's.
  if (outcome === 'duplicate' && via === 'callback') state.stats.duplicates += 1;
  if (outcome === 'stale' && via === 'callback') state.stats.stale += 1;
  if (outcome === 'expired') state.stats.expired += 1;
  if (outcome === 'rejected') state.stats.rejected += 1;
  return outcome;
}

/** Records an observation; returns what happened. */
export function record(state: LedgerState, tx: Observation, via: SeenVia, options: RecordOptions = {}): Outcome {
  const {
    kind,
    transferId,
    now,
    keepHeldAside = false,
    boundRecordsWhilePending = false,
    counting = COUNTED_TODAY,
  } = options;
  const outcome = tally(state, tx, via, now);
  if (outcome !== 'new' && outcome !== 'advanced') return outcome;

  const way = counting.direction(state.walletId, tx);
  // A number where a run from before exact amounts recorded one: String(n), exact for what JSON gave.
  const size = absolute(decimal(tx.amount, `transaction ${tx.id}: amount`));
  const amount = way.sign === 0 ? '0' : way.sign < 0 ? negate(size) : size;
  const settled = Object.hasOwn(state.settled, tx.id) ? state.settled[tx.id] : undefined;
  const held = now !== undefined && !plausibleTime(tx.createdAt, now);
  if (outcome === 'new') {
    if (held) state.stats.heldAside = (state.stats.heldAside ?? 0) + 1;
    state.entries[tx.id] = {
      id: tx.id,
      currency: tx.currency,
      amount,
      status: tx.status,
      kind: kind ?? way.kind,
      source: tx.source,
      ...(transferId ? { transferId } : {}),
      createdAt: tx.createdAt,
      ...(tx.confirmedAt ? { confirmedAt: tx.confirmedAt } : {}),
      firstSeenVia: via,
      ...(held ? { timeHeldAside: true as const } : {}),
    };
    state.order.push(tx.id);
  } else if (settled) {
    // A settled transaction moved on after it left the recent entries: a reversal takes back
    // what its confirmation counted.
    const currency = settled[CURRENCY];
    if (isConfirmed(settled[STATUS]) && !isConfirmed(tx.status)) {
      state.settledTotals[currency] = subtract(state.settledTotals[currency] ?? '0', settled[AMOUNT]!);
      counting.settledTotalMoved(currency, settled[AMOUNT]!, -1);
    }
    // A pending entry dropped past the bound (`dropPending`) confirmed since: its confirmed amount counts.
    if (!isConfirmed(settled[STATUS]) && statusRank(settled[STATUS]) < 2 && isConfirmed(tx.status)) {
      state.settledTotals[currency] = add(state.settledTotals[currency] ?? '0', amount);
      settled[AMOUNT] = amount;
    }
    settled[STATUS] = tx.status;
  } else {
    const entry = state.entries[tx.id]!;
    entry.status = tx.status;
    // The confirmed amount is the one that counts (a pending notice can carry an estimate).
    if (isConfirmed(tx.status)) entry.amount = amount;
    if (tx.confirmedAt) entry.confirmedAt = tx.confirmedAt;
  }
  if (via === 'poll') state.stats.recoveredByPoll += 1;
  if (!held) advanceHorizon(state, tx.createdAt - LIMITS.windowMs, { force: false });
  if (now !== undefined) dropPending(state, now);
  evict(state, { keepHeldAside, boundRecordsWhilePending, counting });
  return outcome;
}

/**
 * Bounds the pending entries (LIMITS.pendingEntries, pendingAgeMs): the oldest leave the entries
 * for a record with their status (`stats.pendingDropped`), out of the pending balance; a later
 * confirmation still counts while the record lasts, and the reconciliation is the backstop.
 */
function dropPending(state: LedgerState, now: number): void {
  const pending = state.order.filter((id) => statusRank(state.entries[id]!.status) < 2);
  let excess = pending.length - LIMITS.pendingEntries;
  const dropped = new Set<string>();
  for (const id of pending) {
    const entry = state.entries[id]!;
    const stale = !entry.timeHeldAside && entry.createdAt < now - LIMITS.pendingAgeMs;
    if (excess <= 0 && !stale) continue;
    excess -= 1;
    dropped.add(id);
    delete state.entries[id];
    putRecord(state.settled, id, recordOf(entry));
    state.stats.pendingDropped = (state.stats.pendingDropped ?? 0) + 1;
  }
  if (dropped.size > 0) state.order = state.order.filter((id) => !dropped.has(id));
}

function evict(
  state: LedgerState,
  {
    keepHeldAside,
    boundRecordsWhilePending,
    counting,
  }: { keepHeldAside: boolean; boundRecordsWhilePending: boolean; counting: Counting },
): void {
  while (state.order.length > LIMITS.recentEntries) {
    // Only settled entries leave: a pending or in-between one must still be there when it settles.
    const idx = state.order.findIndex((id) => statusRank(state.entries[id]!.status) >= 2);
    // None settled: the records are still trimmed below (runs from before wallet-records-bounded
    // stopped here, and their records could pass the bound by the pending ones dropped to records).
    if (idx < 0 && boundRecordsWhilePending) break;
    if (idx < 0) return;
    const [id] = state.order.splice(idx, 1) as [string];
    const entry = state.entries[id]!;
    if (isConfirmed(entry.status)) {
      state.settledTotals[entry.currency] = add(state.settledTotals[entry.currency] ?? '0', entry.amount);
      counting.settledTotalMoved(entry.currency, entry.amount, 1);
    }
    delete state.entries[id];
    putRecord(state.settled, id, recordOf(entry));
  }
  // Past the count, the oldest records go, then the horizon follows them once (insertion order is
  // not time order). A record held aside has no time for the horizon to stand for once it is gone,
  // so with `keepHeldAside` it stays outside the bound (as many as `stats.heldAside`).
  const count = recordCount(state.settled);
  let excess = count.all - (keepHeldAside ? count.held : 0) - LIMITS.settledRecords;
  if (excess <= 0) return;
  let to = 0;
  for (const id of Object.keys(state.settled)) {
    if (excess <= 0) break;
    const record = state.settled[id]!;
    if (keepHeldAside && heldAsideRecord(record)) continue;
    to = Math.max(to, record[CREATED_AT] + 1);
    forgetRecord(state.settled, id);
    excess -= 1;
  }
  advanceHorizon(state, to, { force: true });
}

/**
 * Moves the horizon forward (never back) and forgets the records it passed. In steps of a day at
 * least, so that recording stays flat however many records the ledger keeps.
 */
function advanceHorizon(state: LedgerState, to: number, { force }: { force: boolean }): void {
  if (to <= state.horizon || (!force && to < state.horizon + DAY)) return;
  state.horizon = to;
  for (const id of Object.keys(state.settled)) {
    // A record with no time (held aside, or from the first shape) stays until the count pushes it out.
    const createdAt = state.settled[id]![CREATED_AT];
    if (createdAt !== NO_TIME && createdAt < to) forgetRecord(state.settled, id);
  }
}

export type Balance = z.output<typeof balance>;

/** Balances derived from the entries, exactly: confirmed, and pending (seen but not yet confirmed). */
export function balances(state: LedgerState): Record<string, Balance> {
  const out = table<Balance>();
  const at = (c: string) => (out[c] ??= { confirmed: '0', pending: '0' });
  for (const [c, v] of Object.entries(state.settledTotals)) at(c).confirmed = add(at(c).confirmed, v);
  for (const entry of Object.values(state.entries)) {
    const balance = at(entry.currency);
    if (isConfirmed(entry.status)) balance.confirmed = add(balance.confirmed, entry.amount);
    else if (statusRank(entry.status) < 2) balance.pending = add(balance.pending, entry.amount);
  }
  for (const c of state.approximate ?? []) if (out[c]) out[c].approximate = true;
  return out;
}

export function recent(state: LedgerState, limit = 50): Entry[] {
  return state.order
    .slice(-limit)
    .reverse()
    .map((id) => state.entries[id]!);
}

/**
 * The ledger's part of a poll cursor: what is still open, what it holds ended unconfirmed, and the
 * horizon below which an ended transaction is no news. A poll's page is the provider's
 * POLL_PAGE_LIMIT newest transactions, so `ended` needs only the newest page of ended records, with
 * every ended entry and record held aside: bounded, never by the wallet's age (see `changedSince`).
 */
export function ledgerCursor(state: LedgerState): Pick<PollCursor, 'open' | 'ended' | 'horizon'> {
  const open = table<string>();
  const ended: string[] = [];
  // Below this, every transaction the ledger knows ended unconfirmed, or it does not know it.
  let horizon: number | undefined = state.horizon;
  const endedUnconfirmed = (status: string) => statusRank(status) >= 2 && !isConfirmed(status);
  // A confirmed transaction with no time (held aside, or remembered from the first shape) has none
  // the horizon could be compared with: a late reversal of it is news whatever time the provider
  // gives it, so the cursor then has no horizon.
  let heldAsideConfirmed = false;
  for (const entry of Object.values(state.entries)) {
    if (statusRank(entry.status) < 2) open[entry.id] = entry.status;
    else if (!isConfirmed(entry.status)) ended.push(entry.id);
    else if (entry.timeHeldAside) heldAsideConfirmed = true;
    else horizon = Math.min(horizon, entry.createdAt);
  }
  const endedRecords: Array<[id: string, createdAt: number]> = [];
  for (const [id, record] of Object.entries(state.settled)) {
    const createdAt = record[CREATED_AT];
    if (endedUnconfirmed(record[STATUS])) {
      if (createdAt === NO_TIME) ended.push(id);
      else endedRecords.push([id, createdAt]);
    } else if (createdAt === NO_TIME) heldAsideConfirmed = true;
    else if (horizon !== undefined) horizon = Math.min(horizon, createdAt);
  }
  if (heldAsideConfirmed) horizon = undefined;
  const after = horizon ?? 0;
  const candidates = endedRecords.filter(([, createdAt]) => createdAt >= after).sort((a, b) => b[1] - a[1]);
  // The newest page's worth, and any that share the last one's time.
  const last = candidates[POLL_PAGE_LIMIT - 1]?.[1] ?? -Infinity;
  for (const [id, createdAt] of candidates) if (createdAt >= last) ended.push(id);
  return { open, ended, ...(horizon !== undefined && horizon > 0 ? { horizon } : {}) };
}

/** Whether a transaction is still to settle: its confirmation is what a poll would look for. */
export function hasPending(state: LedgerState): boolean {
  return Object.values(state.entries).some((e) => statusRank(e.status) < 2);
}
