import type { z } from 'zod';
import { checkOpenWalletInput, checkWalletInput } from './checks.js';
import { zodFrom } from '../lib/zod-from-check.schema.js';

// Inputs of the wallet workflows as zod schemas: the client and the ingress validate with them.
// What the workflows check is defined once, in ./checks.ts; these are built from it.

export const walletInput = zodFrom(checkWalletInput);
export type WalletInputFields = z.input<typeof walletInput>;

export const openWalletInput = zodFrom(checkOpenWalletInput);
export type OpenWalletInput = z.infer<typeof openWalletInput>;
