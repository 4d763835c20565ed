import { z } from 'zod';
import { accountId, amount, epochMs, positiveAmount, userOwner } from './common.js';

// docs/provider-contract.md §2.6, §4.3 and §OP-8.
export const reservationRequest = z
  .object({
    sourceAmount: positiveAmount.optional(),
    destAmount: positiveAmount.optional(),
    amountIncludeFees: z.boolean().optional(),
    sourceCurrency: z
      .string()
      .regex(/^[A-Z0-9]{2,10}$/)
      .optional(),
    destCurrency: z
      .string()
      .regex(/^[A-Z0-9]{2,10}$/)
      .optional(),
    lockFields: z.array(z.string()).optional(),
    referrerAccountId: accountId.optional(),
    country: z.string().optional(),
    email: z.email().optional(),
    dest: z
      .string()
      .regex(
        /^(account|wallet|ethereum|bitcoin):[A-Za-z0-9_-]+$/,
        'dest must be an SRN such as account:AC_<id> or wallet:WA_<id>',
      )
      .optional(),
    city: z.string().optional(),
    phone: z.string().optional(),
    paymentMethod: z.string().optional(),
    redirectUrl: z.url().optional(),
    failureRedirectUrl: z.url().optional(),
    street1: z.string().optional(),
    state: z.string().optional(),
    postalCode: z.string().optional(),
    firstName: z.string().optional(),
    lastName: z.string().optional(),
    owner: userOwner.optional(),
  })
  .superRefine((request, ctx) => {
    if (request.sourceAmount !== undefined && request.destAmount !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['destAmount'], message: 'send sourceAmount or destAmount, not both' });
    }
    const locked = (request.lockFields ?? []).some((f) =>
      ['sourceAmount', 'destAmount', 'sourceCurrency', 'amount'].includes(f),
    );
    if (locked && request.sourceAmount === undefined && request.destAmount === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['sourceAmount'],
        message: 'a locked amount needs sourceAmount or destAmount',
      });
    }
    if (locked && request.sourceCurrency === undefined) {
      ctx.addIssue({ code: 'custom', path: ['sourceCurrency'], message: 'a locked amount needs sourceCurrency' });
    }
  });
export type ReservationRequest = z.input<typeof reservationRequest>;
/** A reservation request as read: amounts are canonical decimal strings. */
export type ReadReservationRequest = z.output<typeof reservationRequest>;

export const reservation = z.object({ url: z.url(), reservation: z.string().min(1) });
export type Reservation = z.infer<typeof reservation>;

/** Order statuses (docs/provider-contract.md §OP-8): RUNNING_CHECKS, PROCESSING (a transfer id is assigned), COMPLETE or FAILED. */
export const orderStatus = z.enum(['RUNNING_CHECKS', 'PROCESSING', 'COMPLETE', 'FAILED']);

/** A reservation as the sandbox's order tracking reports it (not in the contract). */
export const reservationState = z.object({
  reservation: z.string(),
  status: z.enum(['OPEN', 'USED', 'EXPIRED']),
  expiresAt: epochMs,
  owner: z.string().nullable(),
  orderId: z.string().nullable(),
});

export const order = z.object({
  id: z.string(),
  reservation: z.string(),
  status: orderStatus,
  transferId: z.string().nullable(),
  sourceAmount: amount,
  sourceCurrency: z.string(),
  destCurrency: z.string(),
  dest: z.string(),
  owner: z.string().nullable(),
  failureReason: z.string().nullable(),
  createdAt: epochMs,
});
export type Order = z.infer<typeof order>;
