import { decimal, recordedNumber } from '../decimal.js';
import type { Transaction } from './schemas/transaction.js';

// What a wallet's ledger needs of a transaction, and how a poll finds what changed since the
// ledger last looked. Shared by the wallet workflow (which builds the cursor from its ledger) and
// the poll activity (which filters the provider's answer with it), so that a poll that finds
// nothing new writes almost nothing to history.

/**
 * What the ledger needs of a transaction; callbacks and polls are trimmed to it before history.
 * The amount is exact, a canonical decimal string (src/decimal.ts).
 */
export type Observation = Pick<
  Transaction,
  'id' | 'createdAt' | 'source' | 'dest' | 'currency' | 'amount' | 'status'
> & { confirmedAt?: number | null };

/**
 * An observation as histories hold it: runs from before exact amounts signalled, polled and
 * carried the amount as a JSON number.
 */
export type RecordedObservation = Omit<Observation, 'amount'> & { amount: string | number };

export function observe(tx: RecordedObservation): Observation {
  const { id, createdAt, source, dest, currency, amount, status, confirmedAt } = tx;
  return {
    id,
    createdAt,
    source,
    dest,
    currency,
    // A number only in what a run from before exact amounts recorded.
    amount: typeof amount === 'number' ? recordedNumber(amount) : decimal(amount, `transaction ${id}: amount`),
    status,
    confirmedAt: confirmedAt ?? null,
  };
}

/**
 * Where a wallet's polling stands, so that a poll returns only what could change the ledger. The
 * first two fields come from the previous poll's page (`nextCursor`), the last two from the ledger.
 * Every list is bounded by what is recent or unsettled, never by the wallet's age.
 */
export interface PollCursor {
  /** Transactions created before this were in an earlier page, and were looked at then. */
  since: number;
  /** Ids of the previous page created at or after `since`. */
  seen: string[];
  /** Transactions the ledger holds as not yet settled, with the status it holds. */
  open: Record<string, string>;
  /**
   * Transactions the ledger holds as ended other than confirmed (reversed, failed, …): its recent
   * entries, and of its settled records those a poll's page can hold (see `ledgerCursor`).
   */
  ended: string[];
  /**
   * An ended transaction created before this (at a time that can be one) is one the ledger holds
   * ended or no longer knows (it would be expired): no news. Absent from cursors of runs from
   * before, and when the ledger holds records whose status it does not know.
   */
  horizon?: number;
}

/**
 * What a poll answers: what changed and the cursor's next page part; or that the provider does not
 * know the wallet; or that it knows it but does not list its transactions (polling then stops).
 */
export type PollAnswer =
  { changed: Observation[]; cursor: Pick<PollCursor, 'since' | 'seen'> } | { notFound: true } | { cannotList: true };

/**
 * How far back a poll looks again past the newest transaction it saw: a transaction can show up in
 * the provider's list a little after its createdAt (a list that lags, a clock that differs).
 */
export const POLL_LOOKBACK_MS = 3_600_000;

/** How many of a wallet's newest transactions a poll looks at (activities/wallets.ts). */
export const POLL_PAGE_LIMIT = 100;

/** No transaction of the provider's is older: 2013-01-01 UTC. A time in seconds reads as 1970. */
export const PROVIDER_EPOCH_MS = 1_356_998_400_000;
/** How far past now a createdAt may be: clocks differ by minutes, not by a day. */
export const FUTURE_SLACK_MS = 86_400_000;

/**
 * Whether a time the provider reports can be one: not before its epoch, not beyond `now` plus a
 * day. One that cannot (a time in microseconds, in seconds) moves neither the ledger's horizon nor
 * the poll cursor: it would count every real transaction after it as expired.
 */
export function plausibleTime(at: number, now: number): boolean {
  return at >= PROVIDER_EPOCH_MS && at <= now + FUTURE_SLACK_MS;
}

const ENDED_UNCONFIRMED = new Set(['CANCELLED', 'FAILED', 'REVERSED', 'EXPIRED']);

/**
 * The observations in `page` that could change the ledger, oldest first: those not seen by an
 * earlier poll, a new status of an open one, and one that ended other than confirmed that the
 * ledger does not hold so (a late reversal), unless it is older than the ledger's horizon and so
 * held ended or no longer known. The rest the ledger already holds as it is: a quiet wallet's
 * poll finds nothing, and writes nothing to its history.
 */
export function changedSince(page: readonly Observation[], cursor: PollCursor): Observation[] {
  const seen = new Set(cursor.seen);
  const ended = new Set(cursor.ended);
  const { horizon } = cursor;
  const changed = page.filter((tx) => {
    if (Object.hasOwn(cursor.open, tx.id)) return cursor.open[tx.id] !== tx.status;
    if (tx.createdAt >= cursor.since && !seen.has(tx.id)) return true;
    if (!ENDED_UNCONFIRMED.has(tx.status) || ended.has(tx.id)) return false;
    // A time that cannot be one (before the epoch; one beyond now is past any horizon) says nothing.
    return horizon === undefined || tx.createdAt < PROVIDER_EPOCH_MS || tx.createdAt >= horizon;
  });
  return changed.sort((a, b) => a.createdAt - b.createdAt);
}

/**
 * The cursor's page part after a poll that saw `page`: it moves forward only, and, given `now`,
 * never to a time that cannot be one (see `plausibleTime`).
 */
export function nextCursor(
  page: readonly Observation[],
  previous: Pick<PollCursor, 'since' | 'seen'>,
  now?: number,
): Pick<PollCursor, 'since' | 'seen'> {
  const times = page.map((tx) => tx.createdAt).filter((at) => now === undefined || plausibleTime(at, now));
  // Never past now: a time a few hours ahead (a clock that differs) is plausible, but a cursor
  // there would pass over the real transactions created before it.
  const newest = Math.min(Math.max(0, ...times), now ?? Infinity);
  const since = Math.max(previous.since, newest - POLL_LOOKBACK_MS);
  return { since, seen: page.filter((tx) => tx.createdAt >= since).map((tx) => tx.id) };
}
