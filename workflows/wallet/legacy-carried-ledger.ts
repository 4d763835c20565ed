import { type Decimal, decimal, recordedNumber } from '../../src/decimal.js';
import { FUTURE_SLACK_MS, plausibleTime } from '../../src/provider/transaction-observation.js';
import {
  type Entry,
  LIMITS,
  type LedgerState,
  type LedgerStats,
  type Observation,
  type Outcome,
  record,
  type RecordOptions,
  type SeenVia,
  table,
  tally,
} from './ledger.js';
import { amountUnknown, CREATED_AT, NO_TIME, recountRecords, type SettledRecord, STATUS } from './settled-records.js';

// What a wallet's ledger carried across continue-as-new before amounts were exact (version 3) and
// before times were bounded: read into today's shape once, when a run starts (wallet/carried-ledger.ts,
// wallet/run.ts), and the records of the first shape recorded around today's ledger. Delete once
// no wallet carries them: every wallet has continued as new on code with wallet-exact-ledger.

/** A record as carried in version 2: its amount a number. */
type CarriedRecord = [currency: string, amount: Decimal | number | null, status: string, createdAt: number];
/** An entry as carried before exact amounts: its amount a number. */
type CarriedEntry = Omit<Entry, 'amount'> & { amount: Decimal | number };

/** The ledger as carried in version 2: amounts as numbers. */
export interface LedgerStateV2 extends Omit<LedgerState, 'version' | 'entries' | 'settled' | 'settledTotals'> {
  version: 2;
  entries: Record<string, CarriedEntry>;
  settled: Record<string, CarriedRecord>;
  settledTotals: Record<string, number>;
}

/** The ledger as carried before version 2, its first shape: ids of settled entries only. */
export interface LedgerStateV1 {
  walletId: string;
  entries: Record<string, CarriedEntry>;
  order: string[];
  settledIds: string[];
  settledTotals: Record<string, number>;
  stats: Omit<LedgerStats, 'expired' | 'rejected'>;
}

/**
 * Amounts were numbers. One amount came from the provider's JSON as a number: String(n) gives its
 * digits back when it had at most 15 significant digits (every such decimal survives a double).
 * Sums (settledTotals) were added in binary floating point and cannot be read back exactly: their
 * currencies are marked approximate.
 */
export function fromOlderShape(carried: LedgerStateV2 | LedgerStateV1): LedgerState {
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
  if ('version' in carried) {
    for (const [id, [currency, amount, status, createdAt]] of Object.entries(carried.settled))
      settled[id] = [currency, amount === null ? null : exact(amount, currency), status, createdAt];
    return withApproximate({ ...carried, version: 3, entries, settled, settledTotals, stats: { ...carried.stats } });
  }
  // The first shape kept ids only, and evicted every settled entry: confirmed ones (their amounts
  // in settledTotals) and ones that had ended reversed, cancelled, failed or expired (not counted).
  // A record says "settled, status unknown": the null amount marks it. Held as CONFIRMED, so that
  // a resent confirmation is a duplicate and a pending notice stale; an ended notice moves no
  // balance (`recordWithFirstShape`).
  for (const id of carried.settledIds) settled[id] = ['', null, 'CONFIRMED', NO_TIME];
  return withApproximate({
    version: 3,
    walletId: carried.walletId,
    entries,
    order: [...carried.order],
    settled,
    horizon: 0,
    settledTotals,
    stats: { ...carried.stats, expired: 0, rejected: 0 },
  });
}

/** Significant digits of a canonical decimal: the digits without sign, point and outer zeros. */
function significantDigits(amount: Decimal): number {
  return amount.replace(/[-.]/g, '').replace(/^0+/, '').replace(/0+$/, '').length;
}

/** Whether a ledger still holds records from the first shape: its run records through `recordWithFirstShape`. */
export function holdsFirstShapeRecords(state: LedgerState): boolean {
  return Object.values(state.settled).some(amountUnknown);
}

/**
 * Records as today's ledger does, but for a record from the first shape, which did not say whether
 * its transaction was counted: it may have been evicted confirmed (counted) or already reversed,
 * cancelled, … (never counted). Taking an amount back on a guess could move the balance by an
 * amount never counted, so nothing moves: the notice is counted in `stats.unapplied` and its
 * status recorded (a resend is a duplicate); the reconciliation shows a drift if it mattered, for
 * a person to settle.
 */
export function recordWithFirstShape(
  state: LedgerState,
  tx: Observation,
  via: SeenVia,
  options: RecordOptions = {},
): Outcome | 'unapplied' {
  const remembered = Object.hasOwn(state.settled, tx.id) ? state.settled[tx.id] : undefined;
  if (!remembered || !amountUnknown(remembered)) return record(state, tx, via, options);
  const outcome = tally(state, tx, via, options.now);
  if (outcome !== 'advanced') return outcome;
  state.stats.unapplied = (state.stats.unapplied ?? 0) + 1;
  remembered[STATUS] = tx.status;
  if (via === 'poll') state.stats.recoveredByPoll += 1;
  return 'unapplied';
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
    if (record[CREATED_AT] !== NO_TIME && !plausibleTime(record[CREATED_AT], now)) record[CREATED_AT] = NO_TIME;
  recountRecords(state.settled);
}
