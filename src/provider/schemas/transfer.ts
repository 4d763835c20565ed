import { z } from 'zod';
import { amount, amounts, epochMs, jsonNumber, transferId, wholeNumber } from './common.js';

// docs/provider-contract.md §3.3 and §OP-9: the statuses that occur.
export const transferStatus = z.enum([
  'PREVIEW',
  'UNCONFIRMED',
  'PENDING',
  'COMPLETED',
  'EXPIRED',
  'FAILED',
  'REVERSED',
  'INITIATED',
]);

export const statusHistory = z.object({
  id: z.string(),
  transferId: z.string(),
  createdAt: epochMs,
  type: z.string(),
  statusOrder: jsonNumber(wholeNumber()),
  statusDetail: z.string(),
  state: z.string(),
  failedState: z.string().nullable(),
});

// docs/provider-contract.md §2.5.
export const transfer = z.object({
  id: transferId,
  owner: z.string(),
  status: transferStatus,
  source: z.string(),
  dest: z.string(),
  createdAt: epochMs,
  completedAt: epochMs.nullable(),
  cancelledAt: epochMs.nullable(),
  expiresAt: epochMs.nullable(),
  updatedAt: epochMs.nullable(),
  estimatedArrival: epochMs.nullable(),
  sourceAmount: amount,
  destAmount: amount,
  sourceCurrency: z.string(),
  destCurrency: z.string(),
  totalFees: amount,
  fees: amounts,
  customId: z.string().nullable(),
  failureReason: z.string().nullable(),
  exchangeRate: amount.nullable(),
  pendingSubStatus: z.unknown().optional(),
  reversingSubStatus: z.unknown().optional(),
  reversalReason: z.unknown().optional(),
  blockchainTx: z.unknown().optional(),
  message: z.unknown().optional(),
  statusHistories: z.array(statusHistory),
});
export type Transfer = z.infer<typeof transfer>;
