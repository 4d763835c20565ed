import {
  allHandlersFinished,
  condition,
  proxyActivities,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { OrderActivities } from '../../activities/orders.js';
import type { UserActivities } from '../../activities/users.js';
import type { WalletActivities } from '../../activities/wallets.js';
import { exceededLimit } from '../../src/provider/limits.js';
import { UserId } from '../../src/temporal/search-attributes.js';
import * as rules from './rules.js';
import { PROVIDER_READ, PROVIDER_WRITE } from '../lib/activity-options.js';
import { limitsView } from '../lib/amounts-view.js';
import { startDeadline } from '../lib/deadline.js';
import { idempotencyKey } from '../lib/idempotency.js';
import { enterStage, pollProvider, showStatus, validateStart } from '../lib/process.js';
import { providerRefusal } from '../lib/refusal.js';
import { checkCheckoutInput } from './checks.js';
import { checkoutStateQuery, hostedPageUpdate, purchaseRedirectUpdate } from './messages.js';
import type { CheckoutInput, CheckoutOutcome, CheckoutResult, CheckoutState, HostedPage } from './messages.js';

// Reservation checkout (docs/provider-contract.md §2.6, §4.3, §8; §OP-8): checks the amount against
// the user's limits, reserves a wallet order, hands the hosted page's URL to the caller at once,
// then follows the purchase until the order ends and its transfer is confirmed (rules.ts decides).

// The reservation creates: its refusal ends the checkout as FAILED, its retries giving up fail it.
const provider = proxyActivities<UserActivities & OrderActivities & WalletActivities>(PROVIDER_READ);
const create = proxyActivities<OrderActivities>(PROVIDER_WRITE);

export async function checkoutWorkflow(raw: CheckoutInput): Promise<CheckoutResult> {
  const input = validateStart(checkCheckoutInput, raw);
  const { workflowId } = workflowInfo();
  const state = rules.newCheckoutState(input.orderRef);
  // A redirect reported by the backend: look at the provider now (the provider's state decides).
  let nudged = false;
  let looksStarted = 0;
  let looksDone = 0;

  // Old runs hold limits as numbers: the query shows decimal strings (the state stays as recorded).
  setHandler(checkoutStateQuery, () => ({ ...state, limits: limitsView(state.limits) }));
  setHandler(hostedPageUpdate, handOutHostedPage);
  setHandler(purchaseRedirectUpdate, receiveRedirect, {
    validator: (redirect) => rules.checkRedirect(state, redirect),
  });

  // The buyer's time runs from the start; the deadline is configuration. The provider expires an
  // unused reservation long before the default deadline; this is the backstop.
  const deadlinePassed = startDeadline(input.timing.deadlineMs);
  const pollUntil = pollProvider(input.timing);

  // Within the user's limits (approved for higher ones first, when asked), reserve: the caller gets the page.
  try {
    const endedEarly = await reserveWithinLimits();
    if (endedEarly) return endedEarly;
  } catch (err) {
    const refusal = providerRefusal(err);
    if (refusal === null) throw err;
    return finish('FAILED', refusal.message);
  }

  // The buyer pays on the hosted page: RUNNING_CHECKS, PROCESSING (transfer assigned), COMPLETE or FAILED.
  enterStage(state, 'WAITING_FOR_PURCHASE', { waitingOnEndUser: true });
  const givenUp = () => rules.purchaseGivenUp(state, { deadlinePassed: deadlinePassed() });
  let latest: rules.Look;
  do latest = await pollUntil({ read: look, done: rules.purchaseSettled, wake: () => nudged || givenUp() });
  while (!rules.purchaseSettled(latest) && !givenUp());
  const purchase = rules.purchaseEnding(latest);
  if ('outcome' in purchase) return finish(purchase.outcome, purchase.failureReason);

  // COMPLETE: the money moved only if the order's transfer did (docs/provider-contract.md §2.5).
  enterStage(state, 'CONFIRMING', { waitingOnEndUser: false });
  const { transferId } = purchase;
  const transfer = await pollUntil({
    read: () => provider.readTransferSummary(transferId),
    done: (summary) => !rules.transferInFlight(summary.status),
  });
  const confirmed = rules.transferEnding(transferId, transfer.status);
  return finish(confirmed.outcome, confirmed.failureReason);

  /** The result of a checkout that ended before reserving (NOT_APPROVED, OVER_LIMIT); null once reserved. */
  async function reserveWithinLimits(): Promise<CheckoutResult | null> {
    let owner: string | undefined;
    if (input.userId) {
      const userId = input.userId;
      upsertSearchAttributes([{ key: UserId, value: userId }]);
      let { status } = await provider.readUserStatus({ userId });
      if (input.requireHigherLimits && status !== 'APPROVED') {
        enterStage(state, 'WAITING_FOR_APPROVAL', { waitingOnEndUser: true });
        const readUser = () => provider.readUserStatus({ userId });
        ({ status } = await pollUntil({
          read: readUser,
          done: (user) => rules.approvalDecided(user.status),
          wake: deadlinePassed,
        }));
        if (status !== 'APPROVED') return await finish('NOT_APPROVED', rules.notApprovedReason(status));
      }
      enterStage(state, 'CHECKING_LIMITS', { waitingOnEndUser: false });
      state.limits = await provider.calculateUserLimits({ userId });
      const over = exceededLimit(state.limits, input.sourceAmount);
      // Refused before reserving: a reservation the buyer cannot use helps nobody.
      if (over) return await finish('OVER_LIMIT', over);
      owner = rules.reservationOwner(userId, status);
    }
    enterStage(state, 'RESERVING', { waitingOnEndUser: false });
    const request = rules.reservationRequest(input, owner);
    const reserved = await create.reserve({ request, idempotencyKey: idempotencyKey(workflowId, 'reserve') });
    state.reservation = reserved.reservation;
    state.url = reserved.url;
    return null;
  }

  async function look(): Promise<rules.Look> {
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
    rules.endCheckout(state, { outcome, failureReason });
    showStatus(outcome, { waitingOnEndUser: false });
    // Updates already accepted (the hosted page, a redirect) still get their answers.
    await condition(allHandlersFinished);
    return rules.checkoutResult(state);
  }

  /** The caller gets the hosted page as soon as the reservation exists (update-with-start). */
  async function handOutHostedPage(): Promise<HostedPage> {
    await condition(() => state.reservation !== null || state.stage === 'DONE');
    if (state.reservation === null || state.url === null) throw rules.checkoutEnded(state);
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
}
