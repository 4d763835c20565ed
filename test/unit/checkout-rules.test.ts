import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApplicationFailure } from '@temporalio/common';
import {
  approvalDecided,
  checkoutEnded,
  checkoutResult,
  checkRedirect,
  endCheckout,
  type Look,
  newCheckoutState,
  notApprovedReason,
  purchaseEnding,
  purchaseGivenUp,
  purchaseSettled,
  reservationOwner,
  reservationRequest,
  transferEnding,
  transferInFlight,
} from '../../workflows/checkout/rules.js';
import { CHECKOUT_ENDED } from '../../workflows/checkout/messages.js';
import { INPUT_REJECTED } from '../../workflows/lib/messages.js';
import { answers, assertFields } from '../helpers/assert.js';

// The decisions of a reservation checkout, without a server: whom the reservation is for, when a
// purchase has settled and how it ends the checkout. The workflow's commands around them are held
// by the recorded histories (test/integration/replay.test.ts) and the integration tests.

const order = (status: string, extra: Partial<NonNullable<Look['order']>> = {}): Look['order'] => ({
  status,
  transferId: null,
  failureReason: null,
  ...extra,
});

describe('checkout rules: before reserving', () => {
  it('an approved user owns the reservation (higher limits); any other is no owner', () => {
    assert.equal(reservationOwner('US_1', 'APPROVED'), 'user:US_1');
    assert.equal(reservationOwner('US_1', 'OPEN'), undefined);
  });

  it('the review for higher limits is decided once approved or closed, and says why approval did not come', () => {
    assert.deepEqual(answers(['APPROVED', 'CLOSED', 'OPEN', 'PENDING'], approvalDecided), {
      APPROVED: true,
      CLOSED: true,
      OPEN: false,
      PENDING: false,
    });
    assert.equal(notApprovedReason('CLOSED'), 'the user is closed');
    assert.equal(notApprovedReason('PENDING'), 'the user was not approved for higher limits before the deadline');
  });

  it('the reservation locks the amount the buyer pays, the one checked against the limits', () => {
    const purchase = {
      sourceAmount: 50,
      sourceCurrency: 'USD',
      destCurrency: 'USD',
      dest: 'wallet:WA_1',
      redirectUrl: 'https://shop.example/done',
    };
    assert.deepEqual(reservationRequest(purchase, 'user:US_1'), {
      ...purchase,
      lockFields: ['sourceAmount', 'sourceCurrency'],
      failureRedirectUrl: undefined,
      owner: 'user:US_1',
    });
  });
});

describe('checkout rules: the purchase', () => {
  it('has settled once the order ended with its transfer, or failed, or the reservation expired unused', () => {
    assert.equal(purchaseSettled({ reservation: 'OPEN', order: null }), false);
    assert.equal(purchaseSettled({ reservation: 'EXPIRED', order: null }), true);
    assert.equal(purchaseSettled({ reservation: 'USED', order: order('PROCESSING') }), false);
    assert.equal(
      purchaseSettled({ reservation: 'USED', order: order('COMPLETE') }),
      false,
      'COMPLETE without its transfer yet',
    );
    assert.equal(purchaseSettled({ reservation: 'USED', order: order('COMPLETE', { transferId: 'TF_1' }) }), true);
    assert.equal(purchaseSettled({ reservation: 'USED', order: order('FAILED') }), true);
  });

  it('is given up at the deadline only while there is no order: an order under way is followed to its end', () => {
    const state = newCheckoutState('order-1');
    assert.equal(purchaseGivenUp(state, { deadlinePassed: false }), false);
    assert.equal(purchaseGivenUp(state, { deadlinePassed: true }), true);
    state.orderId = 'WO_1';
    assert.equal(purchaseGivenUp(state, { deadlinePassed: true }), false);
  });

  it('ends the checkout EXPIRED, FAILED or OVER_LIMIT, or names the transfer to confirm', () => {
    assert.deepEqual(purchaseEnding({ reservation: 'EXPIRED', order: null }), {
      outcome: 'EXPIRED',
      failureReason: 'the reservation expired unused',
    });
    assert.deepEqual(purchaseEnding({ reservation: 'OPEN', order: null }), {
      outcome: 'EXPIRED',
      failureReason: 'no purchase before the deadline',
    });
    assert.deepEqual(
      purchaseEnding({ reservation: 'USED', order: order('FAILED', { failureReason: 'The card was declined' }) }),
      { outcome: 'FAILED', failureReason: 'The card was declined' },
    );
    assert.deepEqual(purchaseEnding({ reservation: 'USED', order: order('FAILED') }), {
      outcome: 'FAILED',
      failureReason: 'the purchase failed',
    });
    // docs/provider-contract.md §8: the monthly limit only the provider sees; its refusal names the limit.
    assert.deepEqual(
      purchaseEnding({ reservation: 'USED', order: order('FAILED', { failureReason: 'limits.monthlyLimitReached' }) }),
      { outcome: 'OVER_LIMIT', failureReason: 'limits.monthlyLimitReached' },
    );
    assert.deepEqual(purchaseEnding({ reservation: 'USED', order: order('COMPLETE', { transferId: 'TF_1' }) }), {
      transferId: 'TF_1',
    });
  });

  it('is COMPLETED only once its transfer is, and waits while the transfer may still move', () => {
    assert.deepEqual(
      answers(['PREVIEW', 'UNCONFIRMED', 'PENDING', 'INITIATED', 'COMPLETED', 'FAILED'], transferInFlight),
      {
        PREVIEW: true,
        UNCONFIRMED: true,
        PENDING: true,
        INITIATED: true,
        COMPLETED: false,
        FAILED: false,
      },
    );
    assert.deepEqual(transferEnding('TF_1', 'COMPLETED'), { outcome: 'COMPLETED', failureReason: null });
    assert.deepEqual(transferEnding('TF_1', 'REVERSED'), {
      outcome: 'FAILED',
      failureReason: 'transfer TF_1 is REVERSED',
    });
  });
});

describe('checkout rules: the caller and the backend', () => {
  it('a redirect is taken only while a purchase is awaited, and must name the order or the transfer', () => {
    const state = newCheckoutState('order-1');
    const rejected = (field: string, pattern: RegExp) => (err: unknown) => {
      assert.ok(err instanceof ApplicationFailure && err.type === INPUT_REJECTED, String(err));
      assert.deepEqual(err.details, [{ field }]);
      assert.match(err.message, pattern);
      return true;
    };
    assert.throws(
      () => checkRedirect(state, { orderId: 'WO_1' }),
      rejected('redirect', /no purchase is awaited now: the checkout is CHECKING_LIMITS/),
    );
    state.stage = 'WAITING_FOR_PURCHASE';
    assert.deepEqual(checkRedirect(state, { orderId: 'WO_1' }), { orderId: 'WO_1' });
    assert.throws(() => checkRedirect(state, {}), rejected('orderId', /send the orderId or the transferId/));
    state.stage = 'CONFIRMING';
    assert.deepEqual(checkRedirect(state, { orderId: 'WO_1' }), { orderId: 'WO_1' });
  });

  it('a checkout that ended without a page answers the hosted page update with its outcome and reason', () => {
    const state = newCheckoutState('order-1');
    endCheckout(state, { outcome: 'OVER_LIMIT', failureReason: 'limits.dailyLimitReached' });
    const failure = checkoutEnded(state);
    assertFields(failure, {
      type: CHECKOUT_ENDED,
      nonRetryable: true,
      details: [{ outcome: 'OVER_LIMIT', failureReason: 'limits.dailyLimitReached' }],
    });
    assert.equal(state.stage, 'DONE');
    assert.deepEqual(checkoutResult(state), {
      outcome: 'OVER_LIMIT',
      orderRef: 'order-1',
      reservation: null,
      orderId: null,
      transferId: null,
      failureReason: 'limits.dailyLimitReached',
    });
  });
});
