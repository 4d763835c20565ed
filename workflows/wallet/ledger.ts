import type { z } from 'zod';
import type { balance, entry, entryKind, ledgerState, ledgerStats, seenVia, settledRecord } from './messages.schema.js';
import { absolute, add, type Decimal, decimal, negate, recordedNumber, subtract } from '../../src/decimal.js';
import type { Transaction } from '../../src/provider/schemas/transaction.js';
import { walletSrn } from '../../src/provider/srn.js';
import { moveFloatTotal } from './legacy-float-ledger.js';
import {
  FUTURE_SLACK_MS,
  type Observation,
  plausibleTime,
  POLL_PAGE_LIMIT,
  type PollCursor,
} from '../../src/provider/transaction-observation.js';

// A wallet's transactions as the workflow has seen them, counted once each. Pure data and pure
// functions: the workflow carries the state across continue-as-new, and tests exercise the rules
// without Temporal.
//
// Recent entries are kept whole. Settled ones leave them, but a compact record of each stays for
// the window below, so that a late REVERSED notice is applied and a resent CONFIRMED is recognised;
// a transaction created before the horizon (older than the window, or than the oldest record
// kept) that the ledger does not know is too old to tell apart from a repeat, and is not counted.

export type Kind = z.infer<typeof entryKind>;

export { type Observation, observe, type RecordedObservation } from '../../src/provider/transaction-observation.js';
export type SeenVia = z.infer<typeof seenVia>;

/** A transaction as the ledger counted it (its schema: workflows/wallet/messages.schema.ts). */
export type Entry = z.output<typeof entry>;

/** A settled transaction that left the recent entries: [currency, signed amount or null, status, createdAt]. */
export type SettledRecord = z.output<typeof settledRecord>;
/** A record as carried by runs before exact amounts (version 2): its amount a number. */
type CarriedRecord = [currency: string, amount: Decimal | number | null, status: string, createdAt: number];
/** An entry as carried by runs before exact amounts: its amount a number. */
type CarriedEntry = Omit<Entry, 'amount'> & { amount: Decimal | number };

export type LedgerStats = z.output<typeof ledgerStats>;

/** Also what a run carries across continue-as-new, and what an ended follower returns. */
export type LedgerState = z.output<typeof ledgerState>;

/** The ledger as carried across continue-as-new in version 2: amounts as numbers. */
export interface LedgerStateV2 extends Omit<LedgerState, 'version' | 'entries' | 'settled' | 'settledTotals'> {
  version: 2;
  entries: Record<string, CarriedEntry>;
  settled: Record<string, CarriedRecord>;
  settledTotals: Record<string, number>;
}

/** The ledger as carried across continue-as-new before version 2 (ids of settled entries only). */
export interface LedgerStateV1 {
  walletId: string;
  entries: Record<string, CarriedEntry>;
  order: string[];
  settledIds: string[];
  settledTotals: Record<string, number>;
  stats: Omit<LedgerStats, 'expired' | 'rejected'>;
}

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

const CURRENCY = /^[A-Z0-9]{2,10}$/;

/** A record keyed by ids or currency codes: no prototype, so no key can reach Object.prototype. */
function table<T>(from: Record<string, T> = {}): Record<string, T> {
  return Object.assign(Object.create(null) as Record<string, T>, from);
}

// How many records a settled table holds, and how many of them are held aside (no time, an
// amount), kept as records come and go: counting its keys at every transaction cost a full walk
// of up to LIMITS.settledRecords per callback. Counted once per table (a run's first eviction),
// then kept by putRecord and forgetRecord; never carried.
const recordCounts = new WeakMap<Record<string, SettledRecord>, { all: number; held: number }>();

/**
 * A record of a transaction held aside: no time (0) but an amount. Records from the first shape
 * have no time either, but no amount: they are not held aside.
 */
function heldAsideRecord(record: SettledRecord): boolean {
  return record[3] === 0 && record[1] !== null;
}

function recordCount(settled: Record<string, SettledRecord>): { all: number; held: number } {
  let count = recordCounts.get(settled);
  if (count === undefined) {
    const records = Object.values(settled);
    count = { all: records.length, held: records.filter(heldAsideRecord).length };
    recordCounts.set(settled, count);
  }
  return count;
}

function putRecord(settled: Record<string, SettledRecord>, id: string, record: SettledRecord): void {
  const count = recordCounts.get(settled);
  if (count !== undefined) {
    const before = Object.hasOwn(settled, id) ? settled[id] : undefined;
    if (!before) count.all += 1;
    count.held += Number(heldAsideRecord(record)) - Number(before ? heldAsideRecord(before) : false);
  }
  settled[id] = record;
}

function forgetRecord(settled: Record<string, SettledRecord>, id: string): void {
  const count = recordCounts.get(settled);
  if (count !== undefined && Object.hasOwn(settled, id)) {
    count.all -= 1;
    count.held -= Number(heldAsideRecord(settled[id]!));
  }
  delete settled[id];
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

/** Any ledger a run may carry: the current shape, or one from before. */
export type CarriedLedger = LedgerState | LedgerStateV2 | LedgerStateV1;

/** The ledger a new run starts from: what the previous run carried, in any shape. */
export function fromCarried(carried: CarriedLedger): LedgerState {
  if ('version' in carried && carried.version === 3) {
    const { floatTotals: _decidedBefore, ...current } = carried;
    return {
      ...current,
      entries: table(carried.entries),
      settled: table(carried.settled),
      settledTotals: table(carried.settledTotals),
      ...(carried.approximate ? { approximate: [...carried.approximate] } : {}),
      stats: { ...carried.stats },
    };
  }
  // Before version 3 amounts were numbers. One amount came from the provider's JSON as a number:
  // String(n) gives its digits back when it had at most 15 significant digits (every such decimal
  // survives a double). Sums (settledTotals) were added in binary floating point and cannot be
  // read back exactly: their currencies are marked approximate.
  const approximate = new Set<string>();
  const read = (amount: Decimal | number, currency: string): Decimal =>
    typeof amount === 'number' ? recordedNumber(amount, () => approximate.add(currency)) : decimal(amount);
  const exact = (amount: Decimal | number, currency: string): Decimal => {
    if (typeof amount === 'number' && significantDigits(read(amount, currency)) > 15) approximate.add(currency);
    return read(amount, currency);
  };
  const settledTotals = table<Decimal>();
  for (const [currency, total] of Object.entries(carried.settledTotals)) {
    settledTotals[currency] = read(total, currency);
    if (typeof total === 'number' && total !== 0) approximate.add(currency);
  }
  const entries = table<Entry>();
  for (const [id, entry] of Object.entries(carried.entries))
    entries[id] = { ...entry, amount: exact(entry.amount, entry.currency) };
  const settled = table<SettledRecord>();
  const withApproximate = (state: LedgerState): LedgerState =>
    approximate.size > 0 ? { ...state, approximate: [...approximate].sort() } : state;
  if ('version' in carried && carried.version === 2) {
    for (const [id, [currency, amount, status, createdAt]] of Object.entries(carried.settled))
      settled[id] = [currency, amount === null ? null : exact(amount, currency), status, createdAt];
    return withApproximate({
      ...carried,
      version: 3,
      entries,
      settled,
      settledTotals,
      stats: { ...carried.stats },
    });
  }
  const v1 = carried as LedgerStateV1;
  // The first shape kept ids only, and evicted every settled entry: confirmed ones (their amounts
  // in settledTotals) and ones that had ended reversed, cancelled, failed or expired (not counted).
  // A record says "settled, status unknown": the null amount marks it. Held as CONFIRMED, so that
  // a resent confirmation is a duplicate and a pending notice stale; an ended notice moves no
  // balance (see `record`).
  for (const id of v1.settledIds) settled[id] = ['', null, 'CONFIRMED', 0];
  return withApproximate({
    version: 3,
    walletId: v1.walletId,
    entries,
    order: [...v1.order],
    settled,
    horizon: 0,
    settledTotals,
    stats: { ...v1.stats, expired: 0, rejected: 0 },
  });
}

/** Significant digits of a canonical decimal: the digits without sign, point and outer zeros. */
function significantDigits(amount: Decimal): number {
  return amount.replace(/[-.]/g, '').replace(/^0+/, '').replace(/0+$/, '').length;
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

/** `unapplied` comes from `record` only; `classify` calls the same notice `advanced`. */
export type Outcome = 'new' | 'advanced' | 'duplicate' | 'stale' | 'expired' | 'rejected' | 'unapplied';

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
  if (!CURRENCY.test(tx.currency)) return 'rejected';
  const entry = Object.hasOwn(state.entries, tx.id) ? state.entries[tx.id] : undefined;
  if (entry) return compare(entry.status, tx.status);
  const settled = Object.hasOwn(state.settled, tx.id) ? state.settled[tx.id] : undefined;
  if (settled) return compare(settled[2], tx.status);
  // A time that cannot be one says nothing about the transaction's age: it is counted.
  if (now !== undefined && !plausibleTime(tx.createdAt, now)) return 'new';
  return tx.createdAt < state.horizon ? 'expired' : 'new';
}

/**
 * The sign of a transaction for this wallet, and its kind before any transfer is resolved. A
 * transfer from the wallet to itself moves no balance: its sign is 0 (it is still recorded, so
 * that its repeats are recognised).
 */
export function direction(
  walletId: string,
  tx: Pick<Transaction, 'source' | 'dest'>,
  decidedBefore = false,
): { sign: 1 | 0 | -1; kind: Kind } {
  const srn = walletSrn(walletId);
  // A run from before wallet-exact-ledger counted it as a deposit, and replays so.
  if (tx.source === srn && tx.dest === srn)
    return decidedBefore ? { sign: 1, kind: 'deposit' } : { sign: 0, kind: 'transfer' };
  if (tx.source === srn) return { sign: -1, kind: 'outgoing' };
  if (tx.source.startsWith('transfer:')) return { sign: 1, kind: 'transfer' };
  return { sign: 1, kind: 'deposit' };
}

export interface RecordOptions {
  /** A resolved kind. */
  kind?: Kind;
  /** The transfer behind a transfer-sourced deposit, to be read in the background. */
  transferId?: string;
  /**
   * The workflow's now: given, a createdAt beyond it plus a day or before the provider's epoch is
   * held aside (see `plausibleTime`). Runs from before wallet-exact-ledger pass none.
   */
  now?: number;
  /**
   * Runs since wallet-held-aside-kept: the records of transactions held aside stay for as long as
   * the wallet lives, outside the record bound (see `evict`). Runs from before pass none.
   */
  keepHeldAside?: boolean;
}

/** Records an observation; returns what happened. */
export function record(state: LedgerState, tx: Observation, via: SeenVia, options: RecordOptions = {}): Outcome {
  const { kind, transferId, now, keepHeldAside = false } = options;
  if (via === 'callback') state.stats.callbacks += 1;
  const outcome = classify(state, tx, now);
  // Counted for callbacks only: a poll that meets what a callback brought is no repeat of the provider's.
  if (outcome === 'duplicate' && via === 'callback') state.stats.duplicates += 1;
  if (outcome === 'stale' && via === 'callback') state.stats.stale += 1;
  if (outcome === 'expired') state.stats.expired += 1;
  if (outcome === 'rejected') state.stats.rejected += 1;
  if (outcome !== 'new' && outcome !== 'advanced') return outcome;

  const way = direction(state.walletId, tx, state.floatTotals !== undefined);
  // A number where a run from before exact amounts recorded one (a signal, a poll's answer, a
  // carried inbox): String(n), exact for what JSON gave.
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
  } else if (settled && settled[1] === null) {
    // Remembered from the first shape, which did not say whether the transaction was counted: it
    // may have been evicted confirmed (counted) or already reversed, cancelled, … (never counted),
    // and a reversal the first shape took for a repeat left its amount counted. Taking an amount
    // back on a guess could move the balance by an amount never counted, so nothing moves: the
    // notice is counted in `stats.unapplied` and its status recorded (a resend is a duplicate);
    // the reconciliation with the provider's balances shows a drift if it mattered, for a person
    // to settle.
    state.stats.unapplied = (state.stats.unapplied ?? 0) + 1;
    settled[2] = tx.status;
    if (via === 'poll') state.stats.recoveredByPoll += 1;
    return 'unapplied';
  } else if (settled) {
    // A settled transaction moved on after it left the recent entries: a reversal takes back
    // what its confirmation counted.
    if (isConfirmed(settled[2]) && !isConfirmed(tx.status)) {
      state.settledTotals[settled[0]] = subtract(state.settledTotals[settled[0]] ?? '0', settled[1]!);
      if (state.floatTotals) moveFloatTotal(state.floatTotals, settled[0], settled[1]!, -1);
    }
    // A pending entry dropped past the bound (`dropPending`) confirmed since: its confirmed amount counts.
    if (!isConfirmed(settled[2]) && statusRank(settled[2]) < 2 && isConfirmed(tx.status)) {
      state.settledTotals[settled[0]] = add(state.settledTotals[settled[0]] ?? '0', amount);
      settled[1] = amount;
    }
    settled[2] = tx.status;
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
  evict(state, keepHeldAside);
  return outcome;
}

/**
 * Bounds the pending entries (runs since wallet-exact-ledger, which pass `now`): the oldest
 * pending past LIMITS.pendingEntries, and any pending longer than LIMITS.pendingAgeMs, leave the
 * entries for a record with their status, counted in `stats.pendingDropped`. Their amount leaves
 * the pending balance; a confirmation that comes while the record lasts still counts (see
 * `record`), and the reconciliation is the backstop for one that comes later.
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
    putRecord(state.settled, id, [
      entry.currency,
      entry.amount,
      entry.status,
      entry.timeHeldAside ? 0 : entry.createdAt,
    ]);
    state.stats.pendingDropped = (state.stats.pendingDropped ?? 0) + 1;
  }
  if (dropped.size > 0) state.order = state.order.filter((id) => !dropped.has(id));
}

function evict(state: LedgerState, keepHeldAside: boolean): void {
  while (state.order.length > LIMITS.recentEntries) {
    // Only settled entries leave: a pending or in-between one must still be there when it settles.
    const idx = state.order.findIndex((id) => statusRank(state.entries[id]!.status) >= 2);
    if (idx < 0) return;
    const [id] = state.order.splice(idx, 1) as [string];
    const entry = state.entries[id]!;
    if (isConfirmed(entry.status)) {
      state.settledTotals[entry.currency] = add(state.settledTotals[entry.currency] ?? '0', entry.amount);
      if (state.floatTotals) moveFloatTotal(state.floatTotals, entry.currency, entry.amount, 1);
    }
    delete state.entries[id];
    // A time held aside is kept as none (0): such a record never leaves by the horizon.
    putRecord(state.settled, id, [
      entry.currency,
      entry.amount,
      entry.status,
      entry.timeHeldAside ? 0 : entry.createdAt,
    ]);
  }
  // Past the count, the oldest records go and the horizon follows them. All of them first, then the
  // horizon once: moved by one record, it can forget the next one due to go (insertion order is not
  // time order), and a walk per record cost the whole table each time.
  //
  // A record held aside has no time for the horizon to stand for once it is gone: a resend would be
  // counted again. Since wallet-held-aside-kept it stays, outside the bound, for as long as the
  // wallet lives (there are as many as the provider sent impossible times, each one in
  // `stats.heldAside`); runs from before let the count push it out, as they did.
  const count = recordCount(state.settled);
  let excess = count.all - (keepHeldAside ? count.held : 0) - LIMITS.settledRecords;
  if (excess <= 0) return;
  let to = 0;
  for (const id of Object.keys(state.settled)) {
    if (excess <= 0) break;
    const record = state.settled[id]!;
    if (keepHeldAside && heldAsideRecord(record)) continue;
    to = Math.max(to, record[3] + 1);
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
    const record = state.settled[id]!;
    // Records carried from the first shape have no date: they stay until the count pushes them out.
    const createdAt = record[3];
    if (createdAt !== 0 && createdAt < to) forgetRecord(state.settled, id);
  }
}

/**
 * A horizon past now (plus a day) less the window was moved by a time that cannot be one, before
 * times were bounded: every real transaction after it would count as expired. It goes back to now
 * less the window; the records it made the ledger forget are gone, so a resend of one of them may
 * count again: the reconciliation is the backstop. Returns whether it moved.
 */
export function repairHorizon(state: LedgerState, now: number): boolean {
  holdAsideCarriedTimes(state, now);
  if (state.horizon <= now + FUTURE_SLACK_MS - LIMITS.windowMs) return false;
  state.horizon = Math.max(0, now - LIMITS.windowMs);
  state.stats.horizonRepaired = (state.stats.horizonRepaired ?? 0) + 1;
  return true;
}

/**
 * Entries and records carried from before times were bounded keep the times they came with: one
 * that cannot be a time is held aside as a new one would be, so that neither its eviction nor the
 * count pushing its record out moves the horizon past now.
 */
function holdAsideCarriedTimes(state: LedgerState, now: number): void {
  for (const entry of Object.values(state.entries))
    if (!entry.timeHeldAside && !plausibleTime(entry.createdAt, now)) entry.timeHeldAside = true;
  for (const record of Object.values(state.settled))
    if (record[3] !== 0 && !plausibleTime(record[3], now)) record[3] = 0;
  // Records just held aside change the count of those held: counted again when next needed.
  recordCounts.delete(state.settled);
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
 * POLL_PAGE_LIMIT newest transactions, so a settled record on it is among the ledger's newest
 * ended records: those, with every ended entry and record held aside, are all `ended` needs; the
 * older ones are below the horizon (see `changedSince`). Bounded by the recent entries and a page,
 * plus the records held aside, never by the wallet's age.
 */
export function ledgerCursor(state: LedgerState): Pick<PollCursor, 'open' | 'ended' | 'horizon'> {
  const open = table<string>();
  const ended: string[] = [];
  // Below this, every transaction the ledger knows ended unconfirmed, or it does not know it.
  let horizon: number | undefined = state.horizon;
  const endedUnconfirmed = (status: string) => statusRank(status) >= 2 && !isConfirmed(status);
  for (const entry of Object.values(state.entries)) {
    if (statusRank(entry.status) < 2) open[entry.id] = entry.status;
    else if (!isConfirmed(entry.status)) ended.push(entry.id);
    else if (!entry.timeHeldAside) horizon = Math.min(horizon, entry.createdAt);
  }
  const endedRecords: Array<[id: string, createdAt: number]> = [];
  for (const [id, [, amount, status, createdAt]] of Object.entries(state.settled)) {
    if (endedUnconfirmed(status)) {
      if (createdAt === 0) ended.push(id);
      else endedRecords.push([id, createdAt]);
    } else if (amount === null) {
      // Remembered from the first shape, with neither status nor time: an ended notice for it is
      // news at any age (see `record`).
      horizon = undefined;
    } else if (createdAt !== 0 && horizon !== undefined) horizon = Math.min(horizon, createdAt);
  }
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
