import { z } from 'zod';
import { amount, currencyCode, epochMs, transactionId, unknownNullable } from './common.js';

// docs/provider-contract.md §2.4: the callback payload. Only CONFIRMED is documented; a transaction first seen on a
// blockchain is "reported pending", so any other upper-case status is accepted as-is.
export const transactionStatus = z
  .string()
  .regex(/^[A-Z_]+$/, { message: 'status must be an upper-case word such as PENDING or CONFIRMED' });

export const transaction = z.object({
  id: transactionId,
  createdAt: epochMs,
  source: z.string().min(1),
  dest: z.string().min(1),
  currency: currencyCode,
  amount,
  status: transactionStatus,
  confirmedAt: epochMs.nullable().optional(),
  cancelledAt: epochMs.nullable().optional(),
  reversedAt: epochMs.nullable().optional(),
  message: z.string().nullable().optional(),
  allowOverdraft: z.boolean().optional(),
  authorizer: z.string().nullable().optional(),
  senderProvidedId: z.string().nullable().optional(),
  reversedBy: z.string().nullable().optional(),
  fees: amount.optional(),
  feesDest: z.string().nullable().optional(),
  sourceFees: unknownNullable,
  destFees: unknownNullable,
  metadata: z.record(z.string(), z.unknown()).default({}),
  tags: z.array(z.unknown()).default([]),
});
export type Transaction = z.infer<typeof transaction>;

/** A wallet's transactions, as the sandbox serves them (a call no document describes: docs/provider-contract.md §OP-11). */
export const transactionList = z.object({ data: z.array(transaction) });
