import type { z } from 'zod';
import { checkOpenWalletInput, checkWalletInput } from './checks.js';
import { zodFrom } from '../lib/zod-from-check.schema.js';

// Inputs of the wallet workflows as zod schemas, for the client and the ingress, built from ./checks.ts.

export const walletInput = zodFrom(checkWalletInput);
export type WalletInputFields = z.input<typeof walletInput>;

export const openWalletInput = zodFrom(checkOpenWalletInput);
export type OpenWalletInput = z.infer<typeof openWalletInput>;
