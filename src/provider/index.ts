// `payflows/provider`: the provider's interface as code — the signed client, every endpoint, the
// zod schemas of each resource, the error classes, request and callback signing, SRNs.
export * from './client.js';
export * from './client-token.js';
export * from './endpoint.js';
export * from './endpoints.js';
export * from './errors.js';
export { AnswerTooLargeError } from '../capped-body.js';
export * from './limits.js';
export * from './signing.js';
export * from './srn.js';
export * from './schemas/account.js';
export * from './schemas/common.js';
export * from './schemas/document.js';
export * from './schemas/error.js';
export * from './schemas/limits.js';
export * from './schemas/payment-method.js';
export * from './schemas/reservation.js';
export * from './schemas/session.js';
export * from './schemas/transaction.js';
export * from './schemas/transfer.js';
export * from './schemas/user.js';
export * from './schemas/wallet.js';
