import { z } from 'zod';
import { defineEndpoint } from './endpoint.js';
import { account, createAccountRequest, documentFieldId, updateAccountRequest } from './schemas/account.js';
import { accountId, orderId, paymentMethodId, transferId, userId, walletId } from './schemas/common.js';
import { documentBody, documentQuery } from './schemas/document.js';
import { limits, limitsRequest } from './schemas/limits.js';
import {
  attachBlockchainsRequest,
  createPaymentMethodRequest,
  paymentMethod,
  paymentMethodList,
} from './schemas/payment-method.js';
import { order, reservation, reservationRequest, reservationState } from './schemas/reservation.js';
import { clientSecret, sessionKey } from './schemas/session.js';
import { transactionList } from './schemas/transaction.js';
import { transfer } from './schemas/transfer.js';
import { createUserRequest, user, verificationLink } from './schemas/user.js';
import { createWalletRequest, wallet } from './schemas/wallet.js';

// Every call of the provider interface, one entry each. Section numbers of docs/provider-contract.md in
// comments; calls that rest on its open points (§OP-n), or on no document at all (§OP-11), say
// so, so that each can change in one place.

// --- Wallets and transfers -----------------------------------------------------------------

// docs/provider-contract.md §4.1
export const createWallet = defineEndpoint({
  name: 'create wallet',
  method: 'POST',
  path: '/v2/wallets',
  body: createWalletRequest,
  response: wallet,
});

// docs/provider-contract.md §4.8
export const readTransfer = defineEndpoint({
  name: 'read transfer',
  method: 'GET',
  path: '/v3/transfers/:transferId',
  params: z.object({ transferId }),
  response: transfer,
});

// Not in the contract (docs/provider-contract.md §OP-11): the real service documented a wallet lookup under this path.
export const readWallet = defineEndpoint({
  name: 'read wallet',
  method: 'GET',
  path: '/v2/wallet/:walletId',
  params: z.object({ walletId }),
  response: wallet,
});

// Not in the contract nor in its open points (docs/provider-contract.md §OP-11): a wallet's transactions, newest first. The wallet
// workflow polls it to recover lost callbacks. Against the real service, confirm this path
// before relying on polling; everything else works from callbacks alone.
export const listWalletTransactions = defineEndpoint({
  name: 'list wallet transactions',
  method: 'GET',
  path: '/v2/wallet/:walletId/transactions',
  params: z.object({ walletId }),
  response: transactionList,
});

// --- Accounts (KYC) ------------------------------------------------------------------------

// docs/provider-contract.md §OP-3: create account.
export const createAccount = defineEndpoint({
  name: 'create account',
  method: 'POST',
  path: '/v3/accounts',
  body: createAccountRequest,
  response: account,
});

// docs/provider-contract.md §4.4; masqueradeAs for a sub-account or user.
export const readAccount = defineEndpoint({
  name: 'read account',
  method: 'GET',
  path: '/v3/accounts/:accountId',
  params: z.object({ accountId }),
  response: account,
});

// Not in the contract: resubmits profile field values (the real service's "Update Account").
export const updateAccount = defineEndpoint({
  name: 'update account',
  method: 'POST',
  path: '/v3/accounts/:accountId',
  params: z.object({ accountId }),
  body: updateAccountRequest,
  response: account,
});

// docs/provider-contract.md §4.10 with §OP-4: raw bytes with their MIME type, signed as sent.
export const uploadDocument = defineEndpoint({
  name: 'upload document',
  method: 'POST',
  path: '/v3/accounts/:accountId/:fieldId',
  params: z.object({ accountId, fieldId: documentFieldId }),
  query: documentQuery,
  body: documentBody,
  bodyKind: 'raw',
  response: account,
});

// --- Users and limits ----------------------------------------------------------------------

// docs/provider-contract.md §OP-3: create user.
export const createUser = defineEndpoint({
  name: 'create user',
  method: 'POST',
  path: '/v3/users',
  body: createUserRequest,
  response: user,
});

// docs/provider-contract.md §4.5; masqueradeAs `user:<id>`.
export const readUser = defineEndpoint({
  name: 'read user',
  method: 'GET',
  path: '/v3/users/:userId',
  params: z.object({ userId }),
  response: user,
});

// docs/provider-contract.md §4.6 with §OP-7.
export const calculateLimits = defineEndpoint({
  name: 'limits calculation',
  method: 'POST',
  path: '/v3/widget/limits/calculate',
  body: limitsRequest,
  response: limits,
  creates: false,
});

// docs/provider-contract.md §4.7: a new link every time (it lives 30 minutes: never cache it); no timestamp needed.
export const readOnboardingLink = defineEndpoint({
  name: 'onboarding link',
  method: 'GET',
  path: '/v3/idverify/users/:userId',
  params: z.object({ userId }),
  response: verificationLink,
  timestamp: false,
});

// --- Reservations and orders ---------------------------------------------------------------

// docs/provider-contract.md §4.3 with §OP-8.
export const reserveOrder = defineEndpoint({
  name: 'wallet order reservation',
  method: 'POST',
  path: '/v3/orders/reserve',
  body: reservationRequest,
  response: reservation,
});

// Not in the contract: a reservation's state, modelled on the real service's order tracking.
export const readReservation = defineEndpoint({
  name: 'read reservation',
  method: 'GET',
  path: '/v3/orders/reservation/:reservationId',
  params: z.object({
    reservationId: z.string().regex(/^[A-Za-z0-9_-]+$/, 'reservationId is the id returned by the reservation'),
  }),
  response: reservationState,
});

// Not in the contract: an order's status (the real service's "Track Widget Order").
export const readOrder = defineEndpoint({
  name: 'read order',
  method: 'GET',
  path: '/v3/orders/:orderId',
  params: z.object({ orderId }),
  response: order,
});

// --- Payment methods (still under /v2, docs/provider-contract.md §9.3) ---------------------------------------------

// docs/provider-contract.md §OP-5: create and list under /v2/paymentMethods.
export const createPaymentMethod = defineEndpoint({
  name: 'create payment method',
  method: 'POST',
  path: '/v2/paymentMethods',
  body: createPaymentMethodRequest,
  response: paymentMethod,
});
export const listPaymentMethods = defineEndpoint({
  name: 'list payment methods',
  method: 'GET',
  path: '/v2/paymentMethods',
  response: paymentMethodList,
});

// docs/provider-contract.md §4.11: the versioned path of §OP-5.
export const readPaymentMethod = defineEndpoint({
  name: 'read payment method',
  method: 'GET',
  path: '/v2/paymentMethod/:paymentMethodId',
  params: z.object({ paymentMethodId }),
  response: paymentMethod,
});

// docs/provider-contract.md §OP-5: attach blockchains.
export const attachBlockchains = defineEndpoint({
  name: 'attach blockchains',
  method: 'POST',
  path: '/v2/paymentMethod/:paymentMethodId/attach',
  params: z.object({ paymentMethodId }),
  body: attachBlockchainsRequest,
  response: paymentMethod,
});

// docs/provider-contract.md §4.9 and §OP-5. The least certain call: no public description of its method or body was found; by
// analogy with document upload it sends POST with the raw file and its MIME type.
export const submitFollowup = defineEndpoint({
  name: 'ACH form follow-up',
  method: 'POST',
  path: '/v2/paymentMethod/:paymentMethodId/followup',
  params: z.object({ paymentMethodId }),
  body: documentBody,
  bodyKind: 'raw',
  response: paymentMethod,
});

// --- Client-held tokens (docs/provider-contract.md §5.3) ---------------------------------------------------------

// docs/provider-contract.md §4.2: registers a client-generated secret; made before any credentials exist.
export const registerClientSecret = defineEndpoint({
  name: 'register client token',
  method: 'POST',
  path: '/v2/sessions/auth/key',
  query: z.object({ secretKey: clientSecret }),
  response: sessionKey,
  auth: false,
});
