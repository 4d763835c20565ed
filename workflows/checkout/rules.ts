import { ApplicationFailure } from '@temporalio/workflow';
import type { OrderActivities } from '../../activities/orders.js';
import {
  CHECKOUT_ENDED,
  type CheckoutEndedDetails,
  type CheckoutInput,
  type CheckoutOutcome,
  type CheckoutResult,
  type CheckoutState,
  type PurchaseRedirect,
} from './messages.js';
import { checkPurchaseRedirect } from './checks.js';
import { rejectInput, validate } from '../lib/process.js';

// The decisions of a reservation checkout (docs/provider-contract.md §2.6, §4.3, §8), apart from the commands that carry
// them out: whom the reservation is for, when a purchase has settled and how it ends the checkout,
// what a redirect may do now. Functions of the state the query shows and of the provider's
// answers, with no effect on Temporal, so that tests exercise them without a server.

/** How the checkout ends: the outcome, and the reason the result carries (the provider's, or ours). */
export interface Ending {
  outcome: CheckoutOutcome;
  failureReason: string | null;
}

/** One look at the purchase: the reservation, and its order once the buyer has paid or tried to. */
export interface Look {
  reservation: 'OPEN' | 'USED' | 'EXPIRED';
  order: { status: string; transferId: string | null; failureReason: string | null } | null;
}

export function newCheckoutState(orderRef: string): CheckoutState {
  return {
    orderRef,
    stage: 'CHECKING_LIMITS',
    limits: null,
    reservation: null,
    url: null,
    orderId: null,
    orderStatus: null,
    transferId: null,
    failureReason: null,
    redirectsReceived: 0,
    outcome: null,
  };
}

/** The user's review for higher limits is over: approved, or closed for good. */
export const approvalDecided = (status: string): boolean => status === 'APPROVED' || status === 'CLOSED';

/** Why a checkout that waited for higher limits did not get them. */
export function notApprovedReason(status: string): string {
  return status === 'CLOSED' ? 'the user is closed' : 'the user was not approved for higher limits before the deadline';
}

/** Higher limits need the reservation to name an approved user as its owner (docs/provider-contract.md §8 rule 1). */
export function reservationOwner(userId: string, status: string): string | undefined {
  return status === 'APPROVED' ? `user:${userId}` : undefined;
}

type Purchase = Pick<
  CheckoutInput,
  'sourceAmount' | 'sourceCurrency' | 'destCurrency' | 'dest' | 'redirectUrl' | 'failureRedirectUrl'
>;
type ReservationRequest = Parameters<OrderActivities['reserve']>[0]['request'];

/** The reservation of the purchase, locked to the amount the buyer pays: the one checked against the limits. */
export function reservationRequest(purchase: Purchase, owner: string | undefined): ReservationRequest {
  const { sourceAmount, sourceCurrency, destCurrency, dest, redirectUrl, failureRedirectUrl } = purchase;
  const lockFields = ['sourceAmount', 'sourceCurrency'];
  return { sourceAmount, sourceCurrency, destCurrency, lockFields, dest, redirectUrl, failureRedirectUrl, owner };
}

/** The update failure of a hosted page asked of a checkout that ended without one (e.g. OVER_LIMIT). */
export function checkoutEnded(state: CheckoutState): ApplicationFailure {
  return ApplicationFailure.create({
    type: CHECKOUT_ENDED,
    message: `the checkout ended ${state.outcome} without a hosted page: ${state.failureReason}`,
    details: [{ outcome: state.outcome, failureReason: state.failureReason } satisfies CheckoutEndedDetails],
    nonRetryable: true,
  });
}

/** The purchaseRedirect update's validator: a redirect is taken only while a purchase is awaited. */
export function checkRedirect(state: CheckoutState, redirect: unknown): PurchaseRedirect {
  const checked = validate(checkPurchaseRedirect, redirect);
  if (state.stage !== 'WAITING_FOR_PURCHASE' && state.stage !== 'CONFIRMING') {
    rejectInput('redirect', `no purchase is awaited now: the checkout is ${state.stage}`);
  }
  return checked;
}

/** The order ended (COMPLETE with its transfer, or FAILED), or the reservation expired unused. */
export function purchaseSettled(look: Look): boolean {
  const { order } = look;
  if (order === null) return look.reservation === 'EXPIRED';
  return (order.status === 'COMPLETE' && order.transferId !== null) || order.status === 'FAILED';
}

/** Nobody bought by the deadline. An order under way is followed to its end even past it: the provider decides. */
export function purchaseGivenUp(state: CheckoutState, { deadlinePassed }: { deadlinePassed: boolean }): boolean {
  return deadlinePassed && state.orderId === null;
}

/** How the last look ends the checkout, or the transfer of a COMPLETE order, to confirm next. */
export function purchaseEnding(look: Look): Ending | { transferId: string } {
  const { order } = look;
  if (order === null) {
    const failureReason =
      look.reservation === 'EXPIRED' ? 'the reservation expired unused' : 'no purchase before the deadline';
    return { outcome: 'EXPIRED', failureReason };
  }
  if (order.status === 'FAILED') {
    // The limits answer has no monthly fields, so only the provider can refuse a purchase over the
    // monthly limit (docs/provider-contract.md §8): its refusal names the limit and is an OVER_LIMIT outcome.
    const failureReason = order.failureReason ?? 'the purchase failed';
    return { outcome: /^limits\./.test(failureReason) ? 'OVER_LIMIT' : 'FAILED', failureReason };
  }
  return { transferId: order.transferId! };
}

/** Transfer statuses (docs/provider-contract.md §3.3, §OP-9) that may still move; any other one is final. */
const TRANSFER_IN_FLIGHT = ['PREVIEW', 'UNCONFIRMED', 'PENDING', 'INITIATED'];

export const transferInFlight = (status: string): boolean => TRANSFER_IN_FLIGHT.includes(status);

/** COMPLETE: the money moved only if the order's transfer did (docs/provider-contract.md §2.5). */
export function transferEnding(transferId: string, status: string): Ending {
  if (status === 'COMPLETED') return { outcome: 'COMPLETED', failureReason: null };
  return { outcome: 'FAILED', failureReason: `transfer ${transferId} is ${status}` };
}

export function endCheckout(state: CheckoutState, ending: Ending): void {
  state.stage = 'DONE';
  state.outcome = ending.outcome;
  state.failureReason = ending.failureReason;
}

export function checkoutResult(state: CheckoutState): CheckoutResult {
  const { orderRef, reservation, orderId, transferId, failureReason } = state;
  return { outcome: state.outcome!, orderRef, reservation, orderId, transferId, failureReason };
}
