import { z } from 'zod';
import { walletId } from '../../src/provider/schemas/common.js';
import { walletType } from '../../src/provider/schemas/wallet.js';

// Inputs of the wallet workflows as zod schemas: the client and the ingress validate with them;
// workflow code imports only their types, so zod stays out of the workflow bundle.

export const walletInput = z.object({
  walletId,
  name: z.string().optional(),
  /** How often the provider is polled, so that a lost callback is still seen. */
  pollIntervalMs: z.number().int().min(100),
  /** The longest wait between polls of a quiet wallet (WALLET_POLL_MAX); the default is 90 minutes. */
  pollMaxMs: z.number().int().min(100).optional(),
  /** How often the ledger is compared with the provider's balances (WALLET_RECONCILE_INTERVAL). */
  reconcileIntervalMs: z.number().int().min(1_000).optional(),
  /** Continue-as-new once history reaches this many events (the server's suggestion also counts). */
  maxHistoryEvents: z.number().int().min(50).default(10_000),
});
export type WalletInputFields = z.input<typeof walletInput>;

export const openWalletInput = z.object({
  name: z.string().trim().min(1, "name is required: your unique identifier for the wallet's user").max(256),
  type: walletType.optional(),
  notes: z.string().max(2000).optional(),
  pollIntervalMs: z.number().int().min(100),
  pollMaxMs: z.number().int().min(100).optional(),
  reconcileIntervalMs: z.number().int().min(1_000).optional(),
});
export type OpenWalletInput = z.infer<typeof openWalletInput>;
