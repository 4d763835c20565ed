import type { Observation } from '../../src/provider/transaction-observation.js';
import { walletSrn } from '../../src/provider/srn.js';

/** A deposit of 1 BTC into the wallet, as the ledger and the poll cursor see it. */
export const depositInto =
  (walletId: string) =>
  (id: string, createdAt: number, status = 'CONFIRMED'): Observation => ({
    id,
    createdAt,
    source: 'bitcoin:EXTERNAL',
    dest: walletSrn(walletId),
    currency: 'BTC',
    amount: '1',
    status,
    confirmedAt: null,
  });
