import {
  allHandlersFinished,
  condition,
  proxyActivities,
  setHandler,
  sleep,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { OrderActivities } from '../activities/orders.js';
import type { UserActivities } from '../activities/users.js';
import type { WalletActivities } from '../activities/wallets.js';
import { exceededLimit } from '../src/provider/limits.js';
import { UserId } from '../src/temporal/search-attributes.js';
import {
  approvalDecided,
  checkoutEnded,
  checkoutResult,
  checkRedirect,
  endCheckout,
  type Look,
  newCheckoutState,
  notApprovedReason,
  providerRefusal,
  purchaseEnding,
  purchaseGivenUp,
  purchaseSettled,
  reservationOwner,
  reservationRequest,
  transferEnding,
  transferInFlight,
} from './lib/checkout-rules.js';
import { idempotencyKey } from './lib/idempotency.js';
import { pollProvider, showStatus, validate } from './lib/process.js';
import { CREATION_RETRY } from './lib/retry.js';
import { checkoutInput, checkoutStateQuery, hostedPageUpdate, purchaseRedirectUpdate } from './messages/checkout.js';
import type {
  CheckoutInput,
  CheckoutOutcome,
  CheckoutResult,
  CheckoutStage,
  CheckoutState,
  HostedPage,
} from './messages/checkout.js';

// Reservation checkout (spec 2.6, 4.3, 8; open-points "Reservations and card purchases"): checks
// the amount against the user's limits, reserves a wallet order, hands the hosted page's URL to the
// caller at once, then follows the purchase until the order ends and its transfer is confirmed.
// The decisions (whom the reservation is for, when a purchase has settled, how it ends) are in
// lib/checkout-rules.ts.

// Reads retry without limit (harmless to repeat; waits are bounded by the stall limit); the
// reservation, which creates, is bounded (CREATION_RETRY): its failure fails the checkout.
const provider = proxyActivities<UserActivities & OrderActivities & WalletActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1 minute' },
});
const create = proxyActivities<OrderActivities>({ startToCloseTimeout: '1 minute', retry: CREATION_RETRY });

export async function checkoutWorkflow(raw: CheckoutInput): Promise<CheckoutResult> {
  // A start that bypasses the client and sends bad input fails the run cleanly, not its tasks forever.
  const input = validate(checkoutInput, raw);
  const { workflowId } = workflowInfo();
  const state = newCheckoutState(input.orderRef);
  let deadlinePassed = false;
  // A redirect reported by the backend: look at the provider now (the provider's state decides).
  let nudged = false;
  let looksStarted = 0;
  let looksDone = 0;

  setHandler(checkoutStateQuery, () => state);
  setHandler(hostedPageUpdate, handOutHostedPage);
  setHandler(purchaseRedirectUpdate, receiveRedirect, { validator: (redirect) => checkRedirect(state, redirect) });

  // The buyer's time runs from the start; the deadline is configuration. The provider expires an
  // unused reservation long before the default deadline; this is the backstop.
  void sleep(input.timing.deadlineMs).then(() => {
    deadlinePassed = true;
  });
  const pollUntil = pollProvider(input.timing);

  // Within the user's limits (approved for higher ones first, when asked), reserve: the caller gets the page.
  try {
    const endedEarly = await reserveWithinLimits();
    if (endedEarly) return endedEarly;
  } catch (err) {
    const reason = providerRefusal(err);
    if (reason === null) throw err;
    return finish('FAILED', reason);
  }

  // The buyer pays on the hosted page: RUNNING_CHECKS, PROCESSING (transfer assigned), COMPLETE or FAILED.
  enterStage('WAITING_FOR_PURCHASE', true);
  const givenUp = () => purchaseGivenUp(deadlinePassed, state);
  let latest: Look;
  do latest = await pollUntil(look, purchaseSettled, () => nudged || givenUp());
  while (!purchaseSettled(latest) && !givenUp());
  const purchase = purchaseEnding(latest);
  if ('outcome' in purchase) return finish(purchase.outcome, purchase.failureReason);

  // COMPLETE: the money moved only if the order's transfer did (spec 2.5).
  enterStage('CONFIRMING', false);
  const { transferId } = purchase;
  const transfer = await pollUntil(
    () => provider.readTransferSummary(transferId),
    (summary) => !transferInFlight(summary.status),
  );
  const confirmed = transferEnding(transferId, transfer.status);
  return finish(confirmed.outcome, confirmed.failureReason);

  /** The result of a checkout that ended before reserving (NOT_APPROVED, OVER_LIMIT); null once reserved. */
  async function reserveWithinLimits(): Promise<CheckoutResult | null> {
    let owner: string | undefined;
    if (input.userId) {
      const userId = input.userId;
      upsertSearchAttributes([{ key: UserId, value: userId }]);
      let { status } = await provider.readUserStatus({ userId });
      if (input.requireHigherLimits && status !== 'APPROVED') {
        enterStage('WAITING_FOR_APPROVAL', true);
        const readUser = () => provider.readUserStatus({ userId });
        ({ status } = await pollUntil(
          readUser,
          (user) => approvalDecided(user.status),
          () => deadlinePassed,
        ));
        if (status !== 'APPROVED') return await finish('NOT_APPROVED', notApprovedReason(status));
      }
      enterStage('CHECKING_LIMITS', false);
      state.limits = await provider.calculateUserLimits({ userId });
      const over = exceededLimit(state.limits, input.sourceAmount);
      // Refused before reserving: a reservation the buyer cannot use helps nobody.
      if (over) return await finish('OVER_LIMIT', over);
      owner = reservationOwner(userId, status);
    }
    enterStage('RESERVING', false);
    const request = reservationRequest(input, owner);
    const reserved = await create.reserve({ request, idempotencyKey: idempotencyKey(workflowId, 'reserve') });
    state.reservation = reserved.reservation;
    state.url = reserved.url;
    return null;
  }

  async function look(): Promise<Look> {
    looksStarted += 1;
    nudged = false;
    try {
      const found = await provider.readReservationState({ reservation: state.reservation! });
      if (found.orderId) state.orderId = found.orderId;
      if (!state.orderId) return { reservation: found.status, order: null };
      const order = await provider.readOrderState({ orderId: state.orderId });
      state.orderStatus = order.status;
      if (order.transferId) state.transferId = order.transferId;
      return { reservation: found.status, order };
    } finally {
      looksDone += 1;
    }
  }

  async function finish(outcome: CheckoutOutcome, failureReason: string | null = null): Promise<CheckoutResult> {
    endCheckout(state, { outcome, failureReason });
    showStatus(outcome, false);
    // Updates already accepted (the hosted page, a redirect) still get their answers.
    await condition(allHandlersFinished);
    return checkoutResult(state);
  }

  /** The caller gets the hosted page as soon as the reservation exists (update-with-start). */
  async function handOutHostedPage(): Promise<HostedPage> {
    await condition(() => state.reservation !== null || state.stage === 'DONE');
    if (state.reservation === null || state.url === null) throw checkoutEnded(state);
    return { url: state.url, reservation: state.reservation };
  }

  /** Looks now; answers after a look that started after this redirect, so the state returned reflects it. */
  async function receiveRedirect(): Promise<CheckoutState> {
    state.redirectsReceived += 1;
    const before = looksStarted;
    nudged = true;
    await condition(() => looksDone > before || state.stage !== 'WAITING_FOR_PURCHASE');
    return state;
  }

  function enterStage(stage: CheckoutStage, waitingOnEndUser: boolean): void {
    state.stage = stage;
    showStatus(stage, waitingOnEndUser);
  }
}
