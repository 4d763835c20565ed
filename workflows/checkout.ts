import { ActivityFailure, allHandlersFinished, ApplicationFailure, condition, proxyActivities, setHandler, sleep, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { OrderActivities } from '../activities/orders.js';
import type { UserActivities } from '../activities/users.js';
import type { WalletActivities } from '../activities/wallets.js';
import { exceededLimit } from '../src/provider/limits.js';
import { UserId } from '../src/temporal/search-attributes.js';
import { idempotencyKey } from './lib/idempotency.js';
import { CREATION_RETRY } from './lib/retry.js';
import { poller, rejectInput, showStatus, validate } from './lib/process.js';
import {
  CHECKOUT_ENDED,
  checkoutInput,
  type CheckoutInput,
  type CheckoutOutcome,
  type CheckoutResult,
  type CheckoutState,
  checkoutStateQuery,
  hostedPageUpdate,
  purchaseRedirect,
  purchaseRedirectUpdate,
} from './messages/checkout.js';

// Reservation checkout (spec 2.6, 4.3, 8; open-points "Reservations and card purchases"): checks
// the amount against the user's limits, reserves a wallet order, hands the hosted page's URL to the
// caller at once, then follows the purchase until the order ends and its transfer is confirmed.

// Reads retry without limit (harmless to repeat; waits are bounded by the stall limit); the
// reservation, which creates, is bounded (CREATION_RETRY): its failure fails the checkout.
const provider = proxyActivities<UserActivities & OrderActivities & WalletActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1 minute' },
});
const create = proxyActivities<OrderActivities>({ startToCloseTimeout: '1 minute', retry: CREATION_RETRY });

/** Transfer statuses (open-points) that may still move; any other one is final. */
const TRANSFER_IN_FLIGHT = ['PREVIEW', 'UNCONFIRMED', 'PENDING', 'INITIATED'];

/** A provider refusal (validation, access, not found) that no retry changes, as a reason; else null. */
function refusal(err: unknown): string | null {
  if (err instanceof ActivityFailure && err.cause instanceof ApplicationFailure && err.cause.nonRetryable) return err.cause.message;
  return null;
}

interface Look {
  reservation: 'OPEN' | 'USED' | 'EXPIRED';
  order: { status: string; transferId: string | null; failureReason: string | null } | null;
}

export async function checkoutWorkflow(raw: CheckoutInput): Promise<CheckoutResult> {
  // A start that bypasses the client and sends bad input fails the run cleanly, not its tasks forever.
  const input = validate(checkoutInput, raw);
  const { workflowId } = workflowInfo();
  const state: CheckoutState = {
    orderRef: input.orderRef,
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
  let deadlinePassed = false;
  // A redirect reported by the backend: look at the provider now (the provider's state decides).
  let nudged = false;
  let looksStarted = 0;
  let looksDone = 0;

  setHandler(checkoutStateQuery, () => state);
  // The caller gets the hosted page as soon as the reservation exists (update-with-start).
  setHandler(hostedPageUpdate, async () => {
    await condition(() => state.reservation !== null || state.stage === 'DONE');
    if (state.reservation === null || state.url === null) {
      throw ApplicationFailure.create({
        type: CHECKOUT_ENDED,
        message: `the checkout ended ${state.outcome} without a hosted page: ${state.failureReason}`,
        details: [{ outcome: state.outcome, failureReason: state.failureReason }],
        nonRetryable: true,
      });
    }
    return { url: state.url, reservation: state.reservation };
  });
  setHandler(
    purchaseRedirectUpdate,
    async () => {
      state.redirectsReceived += 1;
      // Answer after a look that started after this redirect, so the state returned reflects it.
      const before = looksStarted;
      nudged = true;
      await condition(() => looksDone > before || state.stage !== 'WAITING_FOR_PURCHASE');
      return state;
    },
    {
      validator: (r) => {
        validate(purchaseRedirect, r);
        if (state.stage !== 'WAITING_FOR_PURCHASE' && state.stage !== 'CONFIRMING') rejectInput('redirect', `no purchase is awaited now: the checkout is ${state.stage}`);
      },
    },
  );

  const finish = async (outcome: CheckoutOutcome, failureReason: string | null = null): Promise<CheckoutResult> => {
    state.stage = 'DONE';
    state.outcome = outcome;
    state.failureReason = failureReason;
    showStatus(outcome, false);
    // Updates already accepted (the hosted page, a redirect) still get their answers.
    await condition(allHandlersFinished);
    return { outcome, orderRef: input.orderRef, reservation: state.reservation, orderId: state.orderId, transferId: state.transferId, failureReason };
  };

  // The buyer's time runs from the start; the deadline is configuration. The provider expires an
  // unused reservation long before the default deadline; this is the backstop.
  void sleep(input.timing.deadlineMs).then(() => {
    deadlinePassed = true;
  });
  const pollUntil = poller(input.timing);

  let owner: string | undefined;
  try {
    if (input.userId) {
      const userId = input.userId;
      upsertSearchAttributes([{ key: UserId, value: userId }]);
      let { status } = await provider.readUserStatus({ userId });
      if (input.requireHigherLimits && status !== 'APPROVED') {
        state.stage = 'WAITING_FOR_APPROVAL';
        showStatus('WAITING_FOR_APPROVAL', true);
        ({ status } = await pollUntil(() => provider.readUserStatus({ userId }), (v) => v.status === 'APPROVED' || v.status === 'CLOSED', () => deadlinePassed));
        if (status !== 'APPROVED') return await finish('NOT_APPROVED', status === 'CLOSED' ? 'the user is closed' : 'the user was not approved for higher limits before the deadline');
      }
      state.stage = 'CHECKING_LIMITS';
      showStatus('CHECKING_LIMITS', false);
      state.limits = await provider.calculateUserLimits({ userId });
      const over = exceededLimit(state.limits, input.sourceAmount);
      // Refused before reserving: a reservation the buyer cannot use helps nobody.
      if (over) return await finish('OVER_LIMIT', over);
      // Higher limits need the reservation to name an approved user as its owner (spec 8 rule 1).
      if (status === 'APPROVED') owner = `user:${userId}`;
    }

    state.stage = 'RESERVING';
    showStatus('RESERVING', false);
    const r = await create.reserve({
      request: {
        sourceAmount: input.sourceAmount,
        sourceCurrency: input.sourceCurrency,
        destCurrency: input.destCurrency,
        // The amount checked against the limits is the amount the buyer pays.
        lockFields: ['sourceAmount', 'sourceCurrency'],
        dest: input.dest,
        redirectUrl: input.redirectUrl,
        failureRedirectUrl: input.failureRedirectUrl,
        owner,
      },
      idempotencyKey: idempotencyKey(workflowId, 'reserve'),
    });
    state.reservation = r.reservation;
    state.url = r.url;
  } catch (err) {
    const reason = refusal(err);
    if (reason === null) throw err;
    return finish('FAILED', reason);
  }
  const reservation = state.reservation;

  // The buyer pays on the hosted page: RUNNING_CHECKS, PROCESSING (transfer assigned), COMPLETE or FAILED.
  state.stage = 'WAITING_FOR_PURCHASE';
  showStatus('WAITING_FOR_PURCHASE', true);
  const look = async (): Promise<Look> => {
    looksStarted += 1;
    nudged = false;
    try {
      const rs = await provider.readReservationState({ reservation });
      if (rs.orderId) state.orderId = rs.orderId;
      if (!state.orderId) return { reservation: rs.status, order: null };
      const o = await provider.readOrderState({ orderId: state.orderId });
      state.orderStatus = o.status;
      if (o.transferId) state.transferId = o.transferId;
      return { reservation: rs.status, order: o };
    } finally {
      looksDone += 1;
    }
  };
  const settled = (l: Look) => (l.order?.status === 'COMPLETE' && l.order.transferId !== null) || l.order?.status === 'FAILED' || (l.order === null && l.reservation === 'EXPIRED');
  // An order under way is followed to its end even past the deadline: the provider decides.
  const givenUp = () => deadlinePassed && state.orderId === null;
  let l: Look;
  do l = await pollUntil(look, settled, () => nudged || givenUp());
  while (!settled(l) && !givenUp());

  if (l.order === null) return finish('EXPIRED', l.reservation === 'EXPIRED' ? 'the reservation expired unused' : 'no purchase before the deadline');
  if (l.order.status === 'FAILED') {
    // The limits answer has no monthly fields, so only the provider can refuse a purchase over the
    // monthly limit (spec 8): its refusal names the limit and is an OVER_LIMIT outcome.
    const reason = l.order.failureReason ?? 'the purchase failed';
    return finish(/^limits\./.test(reason) ? 'OVER_LIMIT' : 'FAILED', reason);
  }

  // COMPLETE: the money moved only if the order's transfer did (spec 2.5).
  state.stage = 'CONFIRMING';
  showStatus('CONFIRMING', false);
  const transferId = l.order.transferId!;
  const t = await pollUntil(() => provider.readTransferSummary(transferId), (v) => !TRANSFER_IN_FLIGHT.includes(v.status));
  if (t.status === 'COMPLETED') return finish('COMPLETED');
  return finish('FAILED', `transfer ${transferId} is ${t.status}`);
}
