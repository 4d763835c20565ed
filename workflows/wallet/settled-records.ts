import type { z } from 'zod';
import type { entry, settledRecord } from './messages.schema.js';

// The compact records of settled transactions that left the ledger's recent entries. A record
// stays the tuple it is carried as, in memory too (a wallet keeps up to 10,000 of them), and is
// read and written through the field names below.

/** [currency, signed amount or null, status, createdAt] (its schema: workflows/wallet/messages.schema.ts). */
export type SettledRecord = z.output<typeof settledRecord>;

export const CURRENCY = 0;
/** Null only in records carried from the first shape, which kept ids only (wallet/legacy-carried-ledger.ts). */
export const AMOUNT = 1;
export const STATUS = 2;
/** NO_TIME for a record held aside, or carried from the first shape: such a record never leaves by the horizon. */
export const CREATED_AT = 3;
export const NO_TIME = 0;

/** The record an entry leaves when it leaves the recent entries. */
export function recordOf(left: z.output<typeof entry>): SettledRecord {
  return [left.currency, left.amount, left.status, left.timeHeldAside ? NO_TIME : left.createdAt];
}

/** Whether its amount, and so whether it was counted, is not known (carried from the first shape). */
export function amountUnknown(record: SettledRecord): boolean {
  return record[AMOUNT] === null;
}

/** A record of a transaction held aside: no time but an amount. */
export function heldAsideRecord(record: SettledRecord): boolean {
  return record[CREATED_AT] === NO_TIME && !amountUnknown(record);
}

// How many records a settled table holds, and how many are held aside: counted once per table, then
// kept by putRecord and forgetRecord, so that no notice walks the table. Never carried.
const recordCounts = new WeakMap<Record<string, SettledRecord>, { all: number; held: number }>();

export function recordCount(settled: Record<string, SettledRecord>): { all: number; held: number } {
  let count = recordCounts.get(settled);
  if (count === undefined) {
    const records = Object.values(settled);
    count = { all: records.length, held: records.filter(heldAsideRecord).length };
    recordCounts.set(settled, count);
  }
  return count;
}

/** After records were changed in place (held aside): counted again when next needed. */
export function recountRecords(settled: Record<string, SettledRecord>): void {
  recordCounts.delete(settled);
}

export function putRecord(settled: Record<string, SettledRecord>, id: string, record: SettledRecord): void {
  const count = recordCounts.get(settled);
  if (count !== undefined) {
    const before = Object.hasOwn(settled, id) ? settled[id] : undefined;
    if (!before) count.all += 1;
    count.held += Number(heldAsideRecord(record)) - Number(before ? heldAsideRecord(before) : false);
  }
  settled[id] = record;
}

export function forgetRecord(settled: Record<string, SettledRecord>, id: string): void {
  const count = recordCounts.get(settled);
  if (count !== undefined && Object.hasOwn(settled, id)) {
    count.all -= 1;
    count.held -= Number(heldAsideRecord(settled[id]!));
  }
  delete settled[id];
}
