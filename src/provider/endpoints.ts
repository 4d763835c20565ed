import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { transferId, walletId } from './schemas/common';
import { transactionList } from './schemas/transaction';
import { transfer } from './schemas/transfer';
import { createWalletRequest, wallet } from './schemas/wallet';

// The provider's calls. Spec numbers in comments; calls that rest on open-points.md or on no
// document at all say so, so that they can be changed in one place.

// 4.1
export const createWallet = defineEndpoint({
  name: 'create wallet',
  method: 'POST',
  path: '/v2/wallets',
  body: createWalletRequest,
  response: wallet,
});

// 4.8
export const readTransfer = defineEndpoint({
  name: 'read transfer',
  method: 'GET',
  path: '/v3/transfers/:transferId',
  params: z.object({ transferId }),
  response: transfer,
});

// Not in the contract: the real service documented a wallet lookup under this path. Used by
// the wallet workflow's polling, so that a lost callback is still seen.
export const readWallet = defineEndpoint({
  name: 'read wallet',
  method: 'GET',
  path: '/v2/wallet/:walletId',
  params: z.object({ walletId }),
  response: wallet,
});

// Not in the contract nor in open-points.md: a wallet's transactions, newest first. The wallet
// workflow polls it to recover lost callbacks. Against the real service, confirm this path
// before relying on polling; everything else works from callbacks alone.
export const listWalletTransactions = defineEndpoint({
  name: 'list wallet transactions',
  method: 'GET',
  path: '/v2/wallet/:walletId/transactions',
  params: z.object({ walletId }),
  response: transactionList,
});
