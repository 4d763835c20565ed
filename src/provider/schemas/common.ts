import { z } from 'zod';

// Identifier prefixes of spec 1: both `-` and `_` occur after the prefix (AC-<id>, AC_<id>).
export function prefixedId(prefix: string, what: string) {
  return z
    .string()
    .regex(new RegExp(`^${prefix}[-_][A-Za-z0-9]+$`), { message: `${what} must look like ${prefix}_<id> or ${prefix}-<id>` });
}

export const walletId = prefixedId('WA', 'a wallet id');
export const transferId = prefixedId('TF', 'a transfer id');
export const transactionId = prefixedId('TR', 'a transaction id');
export const accountId = prefixedId('AC', 'an account id');
export const userId = prefixedId('US', 'a user id');

export const epochMs = z.number().int().nonnegative();
export const currencyCode = z.string().regex(/^[A-Z0-9]{2,10}$/, { message: 'a currency code must be upper-case, e.g. BTC or USD' });
/** A map of currency code to amount, as in balances and fees. */
export const amounts = z.record(z.string(), z.number());
/** Fields that the spec shows only as null: accepted as null or any value (spec 2.2, "Gaps"). */
export const unknownNullable = z.unknown().optional();
