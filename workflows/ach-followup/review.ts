import type { PaymentMethodActivities } from '../../activities/payment-methods.js';
import type { AchOutcome, AchState } from './messages.js';
import { ownFailureReason, type Refusal, refusalLabel, type SendFailure } from '../lib/refusal.js';

// An ACH follow-up's bookkeeping (docs/provider-contract.md §3.1): what the method asks, how funds moved.

/** The payment method as the workflow reads it. */
export type MethodState = Awaited<ReturnType<PaymentMethodActivities['readPaymentMethodState']>>;

/** AWAITING_FOLLOWUP with the ACH_FORM prompt: the end user owes the form. */
export function asksForForm(method: Pick<MethodState, 'status' | 'waitingFor'>): boolean {
  return method.status === 'AWAITING_FOLLOWUP' && method.waitingFor.includes('ACH_FORM');
}

/** PENDING (the service reviews on its own) and a submitted form under review both mean: wait. */
export function reviewGoesOn(method: Pick<MethodState, 'status' | 'waitingFor'>): boolean {
  return method.status === 'PENDING' || (method.status === 'AWAITING_FOLLOWUP' && !asksForForm(method));
}

/** The review's decision, or null while there is none. */
export function reviewDecision(status: string): AchOutcome | null {
  return status === 'APPROVED' || status === 'ACTIVE' || status === 'REJECTED' ? status : null;
}

/** Takes the provider's view into the state; the source of funds' history grows only when it moved. */
export function applyMethodState(state: AchState, method: MethodState): void {
  state.paymentMethodStatus = method.status;
  const previous = state.sourceOfFunds;
  const current = method.sourceOfFunds;
  state.sourceOfFunds = current;
  if (current && (previous?.status !== current.status || previous?.note !== current.note)) {
    state.sourceOfFundsHistory.push(current);
  }
}

/**
 * What the update that handed in a form hears: nothing when the provider took it; otherwise why
 * not, and whose failure that was (none: the process ended first, so the input is rejected).
 */
export type FormAnswer = { error?: string; failure?: SendFailure };

/** A refused form, with what to check before handing one in again (docs/provider-contract.md §3.1 and §3.2's end). */
export function formRefused(refusal: Refusal): string {
  const what =
    refusal.status === 404
      ? "the payment method is not this account's, or is gone"
      : 'check that the payment method still asks for the form and that the file is a legible photo or scan of the signed authorization';
  return `the provider refused it: ${refusalLabel(refusal)}; ${what}, then hand it in again`;
}

/** What the update hears of a form that was not sent: the provider's refusal with what to check, or ours. */
export function formNotSent(failure: SendFailure): string {
  if ('refused' in failure) return formRefused(failure.refused);
  if ('notDelivered' in failure) return `it could not be delivered: ${failure.notDelivered}; hand it in again later`;
  return ownFailureReason(failure);
}

export function newAchState(paymentMethodId: string): AchState {
  return {
    paymentMethodId,
    stage: 'CHECKING',
    paymentMethodStatus: null,
    sourceOfFunds: null,
    sourceOfFundsHistory: [],
    formsSubmitted: 0,
    reminders: 0,
    outcome: null,
  };
}
