import { type Decimal, decimal, recordedNumber } from '../../src/decimal.js';
import { type Entry, type LedgerState, type LedgerStats, table } from './ledger.js';
import { NO_TIME, type SettledRecord } from './settled-records.js';

// The shapes a wallet's ledger was carried in across continue-as-new before amounts were exact
// (version 3), read into today's shape once, when a run starts (wallet/carried-ledger.ts). Delete
// once no wallet carries them: every wallet has continued as new on code with wallet-exact-ledger.

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
  // balance (wallet/ledger.ts, `record`).
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
