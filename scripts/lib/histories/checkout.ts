import * as api from '../../../src/provider/endpoints.js';
import { CheckoutClient, CheckoutEndedError } from '../../../workflows/checkout/client.js';
import { until } from '../child.js';
import { clients, expect, MASTER, op, provider, quickClient, refusedOnce, save, type Stories } from './context.js';
import { onboardedUser } from './onboarding.js';

/** A purchase of 50 USD into a new wallet of the provider's, with `extra` over it. */
const purchase = async (orderRef: string, extra: Record<string, unknown> = {}) => ({
  orderRef,
  sourceAmount: 50,
  sourceCurrency: 'USD',
  destCurrency: 'USD',
  dest: (await provider.call(api.createWallet, { body: { name: `history-buyer-${Date.now()}` } })).srn,
  ...extra,
});

const endedWithoutPage = (err: unknown) => {
  if (!(err instanceof CheckoutEndedError)) throw err;
};

export const stories: Stories = {
  // A purchase with higher limits, by the user the happy onboarding approved (recorded with it).
  async checkout() {
    const userId = await onboardedUser();
    const orderRef = `history-${Date.now()}`;
    const page = await clients.checkout.startAndGetPage(
      await purchase(orderRef, { sourceAmount: 100, userId, requireHigherLimits: true }),
    );
    await op('POST', `/sandbox/reservations/${page.reservation}/complete`);
    await clients.checkout.result(orderRef);
    save('checkout', 'checkout', `checkout:${orderRef}`);
  },

  // The limits are checked, then the provider refuses the reservation: FAILED without a page.
  async 'checkout-refused'() {
    const user = await provider.call(api.createUser, { body: { fields: { country: 'US' } } });
    const orderRef = `history-refused-${Date.now()}`;
    const order = await purchase(orderRef, { userId: user.id });
    const checkout = quickClient(CheckoutClient);
    const ended = await refusedOnce('POST /v3/orders/reserve', () => checkout.startAndGetPage(order));
    if (!(ended instanceof CheckoutEndedError))
      throw new Error(`the checkout did not end without a page: ${String(ended)}`);
    expect('outcome', (await checkout.result(orderRef)).outcome, 'FAILED');
    save('checkout', 'checkout-refused', `checkout:${orderRef}`);
  },

  // Higher limits awaited, never approved before the deadline: NOT_APPROVED.
  async 'checkout-not-approved'() {
    await op('POST', `/sandbox/accounts/${MASTER}/features`, { debitCardL2: true });
    const user = await provider.call(api.createUser, {
      body: { fields: { country: 'US' }, scopes: ['DEBIT_CARD_L2'] },
    });
    const orderRef = `history-not-approved-${Date.now()}`;
    const checkout = quickClient(CheckoutClient, { deadlineMs: 2_000 });
    await checkout
      .startAndGetPage(await purchase(orderRef, { userId: user.id, requireHigherLimits: true }))
      .catch(endedWithoutPage);
    expect('outcome', (await checkout.result(orderRef)).outcome, 'NOT_APPROVED');
    save('checkout', 'checkout-not-approved', `checkout:${orderRef}`);
  },

  // The amount is over the user's standard limits: OVER_LIMIT before reserving.
  async 'checkout-over-limit'() {
    const user = await provider.call(api.createUser, { body: { fields: { country: 'US' } } });
    const orderRef = `history-over-limit-${Date.now()}`;
    await quickClient(CheckoutClient)
      .startAndGetPage(await purchase(orderRef, { userId: user.id, sourceAmount: 600 }))
      .catch(endedWithoutPage);
    expect('outcome', (await quickClient(CheckoutClient).result(orderRef)).outcome, 'OVER_LIMIT');
    save('checkout', 'checkout-over-limit', `checkout:${orderRef}`);
  },

  // The provider refuses the purchase itself over a limit (the buyer paid more than the daily
  // limit allows): the order FAILED with a limits.* reason, an OVER_LIMIT outcome.
  async 'checkout-over-limit-purchase'() {
    const orderRef = `history-over-limit-purchase-${Date.now()}`;
    const checkout = quickClient(CheckoutClient);
    const page = await checkout.startAndGetPage(await purchase(orderRef));
    await op('POST', `/sandbox/reservations/${page.reservation}/complete`, { amount: 600 });
    expect('outcome', (await checkout.result(orderRef)).outcome, 'OVER_LIMIT');
    save('checkout', 'checkout-over-limit-purchase', `checkout:${orderRef}`);
  },

  // The card is declined, and the backend reports the failure redirect: the checkout looks at
  // once (its polls are minutes apart) and ends FAILED.
  async 'checkout-failed'() {
    const orderRef = `history-failed-${Date.now()}`;
    const checkout = quickClient(CheckoutClient, { pollInitialMs: 120_000, pollMaxMs: 120_000 });
    const page = await checkout.startAndGetPage(await purchase(orderRef));
    await until(
      'the purchase to be awaited',
      () => checkout.state(orderRef),
      (state) => state.stage === 'WAITING_FOR_PURCHASE',
    );
    const { order } = await op<{ order: { id: string } }>('POST', `/sandbox/reservations/${page.reservation}/fail`, {
      reason: 'The card was declined',
    });
    expect(
      'order status seen',
      (await checkout.purchaseRedirect(orderRef, { orderId: order.id })).orderStatus,
      'FAILED',
    );
    expect('outcome', (await checkout.result(orderRef)).outcome, 'FAILED');
    save('checkout', 'checkout-failed', `checkout:${orderRef}`);
  },

  // Nobody buys before the checkout's own deadline: EXPIRED.
  async 'checkout-expired'() {
    const orderRef = `history-expired-${Date.now()}`;
    const checkout = quickClient(CheckoutClient, { deadlineMs: 2_000 });
    await checkout.startAndGetPage(await purchase(orderRef));
    expect('outcome', (await checkout.result(orderRef)).outcome, 'EXPIRED');
    save('checkout', 'checkout-expired', `checkout:${orderRef}`);
  },
};
