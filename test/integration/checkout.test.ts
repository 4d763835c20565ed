import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { CheckoutClient, CheckoutEndedError } from '../../workflows/checkout/client.js';
import { InputRejectedError, ProcessNotFoundError } from '../../workflows/lib/client-errors.js';
import * as api from '../../src/provider/endpoints.js';
import type { Order } from '../../src/provider/schemas/reservation.js';
import { assertFields } from '../helpers/assert.js';
import { eventually, startStack, type Stack } from '../helpers/stack.js';
import { resultWithin } from '../helpers/result.js';
import { checkoutWorkflowId } from '../../workflows/checkout/messages.js';

const MASTER = 'AC_SANDBOXMASTER';

describe('Reservation checkout (docs/provider-contract.md §2.6, §4.3, §8)', () => {
  let stack: Stack;
  let checkout: CheckoutClient;
  before(async () => {
    stack = await startStack();
    checkout = new CheckoutClient(stack.client, { taskQueue: stack.taskQueue, timing: stack.timing });
  });
  after(async () => stack?.stop());

  const newRef = () => `order-${randomUUID().slice(0, 8)}`;
  const reservations = () => Object.values(stack.sandbox.ctx.store.state.reservations);
  async function wallet() {
    const created = await stack.provider.call(api.createWallet, {
      body: { name: `buyer-${randomUUID().slice(0, 8)}` },
    });
    return created.srn;
  }
  const purchase = (dest: string, orderRef = newRef()) => ({
    orderRef,
    sourceAmount: 50,
    sourceCurrency: 'USD',
    destCurrency: 'USD',
    dest,
    redirectUrl: 'https://shop.example/done',
  });

  it('hands out the hosted page before any purchase, then ends COMPLETED with the transfer', async () => {
    const dest = await wallet();
    const input = purchase(dest);
    const page = await checkout.startAndGetPage(input);
    const url = new URL(page.url);
    assert.equal(url.searchParams.get('reservation'), page.reservation);
    assert.equal(url.searchParams.get('accountId'), MASTER);
    const reservation = stack.sandbox.ctx.store.state.reservations[page.reservation]!;
    assertFields(reservation, { status: 'OPEN', orderId: null, request: { dest, sourceAmount: '50' }, owner: null });
    const waiting = await checkout.state(input.orderRef);
    assertFields(waiting, { stage: 'WAITING_FOR_PURCHASE', url: page.url, orderId: null });

    const { order } = await stack.op<{ order: Order }>(
      'POST',
      `/sandbox/reservations/${page.reservation}/complete`,
      {},
    );
    const result = await resultWithin(checkout.result(input.orderRef), checkoutWorkflowId(input.orderRef));
    assertFields(result, {
      outcome: 'COMPLETED',
      reservation: page.reservation,
      orderId: order.id,
      transferId: order.transferId,
    });
    assert.equal(stack.sandbox.ctx.store.state.transfers[result.transferId!]!.status, 'COMPLETED');
    assert.equal((await checkout.state(input.orderRef)).stage, 'DONE');
  });

  it('a second startAndGetPage for the same order returns the same reservation and reserves nothing more', async () => {
    const dest = await wallet();
    const input = purchase(dest);
    const before = reservations().length;
    const [first, concurrent] = await Promise.all([checkout.startAndGetPage(input), checkout.startAndGetPage(input)]);
    const later = await checkout.startAndGetPage(input);
    assert.deepEqual(concurrent, first, 'a start at the same time gets the same page');
    assert.deepEqual(later, first, 'a later start gets the same page');
    assert.equal(reservations().length, before + 1);
    await stack.client.workflow.getHandle(`checkout:${input.orderRef}`).terminate('test done');
  });

  it('a redirect reported by the backend makes the checkout look now', async () => {
    // Polling so slow that only the redirect can explain a quick ending.
    const slow = new CheckoutClient(stack.client, {
      taskQueue: stack.taskQueue,
      timing: { ...stack.timing, pollInitialMs: 120_000, pollMaxMs: 120_000 },
    });
    const input = purchase(await wallet());
    const page = await slow.startAndGetPage(input);
    await eventually(async () => assert.equal((await slow.state(input.orderRef)).stage, 'WAITING_FOR_PURCHASE'));
    const { order } = await stack.op<{ order: Order }>(
      'POST',
      `/sandbox/reservations/${page.reservation}/complete`,
      {},
    );
    await assert.rejects(
      slow.purchaseRedirect(input.orderRef, { orderId: 'nope' }),
      (e: unknown) => e instanceof InputRejectedError && e.field === 'orderId',
    );
    const t0 = Date.now();
    const seen = await slow.purchaseRedirect(input.orderRef, { orderId: order.id, transferId: order.transferId! });
    assertFields(seen, { orderId: order.id, orderStatus: 'COMPLETE', redirectsReceived: 1 });
    const result = await resultWithin(slow.result(input.orderRef), checkoutWorkflowId(input.orderRef));
    assert.equal(result.outcome, 'COMPLETED');
    assert.ok(Date.now() - t0 < 30_000, 'ended without waiting for the next poll');
  });

  it('ends FAILED when the purchase fails', async () => {
    const input = purchase(await wallet());
    const page = await checkout.startAndGetPage(input);
    await stack.op('POST', `/sandbox/reservations/${page.reservation}/fail`, { reason: 'The card was declined' });
    const result = await resultWithin(checkout.result(input.orderRef), checkoutWorkflowId(input.orderRef));
    assertFields(result, { outcome: 'FAILED', failureReason: 'The card was declined', transferId: null });
  });

  it('ends EXPIRED when the reservation expires unused', async () => {
    const input = purchase(await wallet());
    const page = await checkout.startAndGetPage(input);
    // The provider's lifetime (15 minutes) passes: the sandbox sees it the next time it is asked.
    stack.sandbox.ctx.store.state.reservations[page.reservation]!.expiresAt = 0;
    const result = await resultWithin(checkout.result(input.orderRef), checkoutWorkflowId(input.orderRef));
    assertFields(result, { outcome: 'EXPIRED', failureReason: 'the reservation expired unused', orderId: null });
  });

  it('gives up at its own deadline when nobody buys', async () => {
    const short = new CheckoutClient(stack.client, {
      taskQueue: stack.taskQueue,
      timing: { ...stack.timing, deadlineMs: 1_500 },
    });
    const input = purchase(await wallet());
    const page = await short.startAndGetPage(input);
    const result = await resultWithin(short.result(input.orderRef), checkoutWorkflowId(input.orderRef));
    assertFields(result, { outcome: 'EXPIRED', reservation: page.reservation });
  });

  it("refuses an amount over the user's standard limits without reserving", async () => {
    const user = await stack.provider.call(api.createUser, { body: { fields: { country: 'US' } } });
    const input = { ...purchase(await wallet()), sourceAmount: 600, userId: user.id };
    const before = reservations().length;
    await assert.rejects(
      checkout.startAndGetPage(input),
      (e: unknown) =>
        e instanceof CheckoutEndedError && e.outcome === 'OVER_LIMIT' && e.failureReason === 'limits.dailyLimitReached',
    );
    const result = await resultWithin(checkout.result(input.orderRef), checkoutWorkflowId(input.orderRef));
    assertFields(result, { outcome: 'OVER_LIMIT', reservation: null });
    assert.equal((await checkout.state(input.orderRef)).limits?.dailyRemaining, '500');
    assert.equal(reservations().length, before, 'no reservation was made');
  });

  it("waits for the user's higher-limits approval, then reserves as that user above the standard limits", async () => {
    await stack.op('POST', `/sandbox/accounts/${MASTER}/features`, { debitCardL2: true });
    const user = await stack.provider.call(api.createUser, {
      body: { fields: { country: 'US' }, scopes: ['DEBIT_CARD_L2'] },
    });
    const input = { ...purchase(await wallet()), sourceAmount: 2_000, userId: user.id, requireHigherLimits: true };
    const pending = checkout.startAndGetPage(input);
    await eventually(async () => assert.equal((await checkout.state(input.orderRef)).stage, 'WAITING_FOR_APPROVAL'));
    assert.equal(
      reservations().filter((r) => r.owner === `user:${user.id}`).length,
      0,
      'nothing reserved before approval',
    );
    await stack.op('POST', `/sandbox/users/${user.id}/approve`);
    const page = await pending;
    assert.equal(stack.sandbox.ctx.store.state.reservations[page.reservation]!.owner, `user:${user.id}`);
    await stack.op('POST', `/sandbox/reservations/${page.reservation}/complete`, {});
    assert.equal(
      (await resultWithin(checkout.result(input.orderRef), checkoutWorkflowId(input.orderRef))).outcome,
      'COMPLETED',
    );
  });

  // docs/provider-contract.md §8 names a monthly limit; the documented limits answer has none, so the checkout cannot
  // pre-check it: the provider refuses the purchase, and the checkout ends OVER_LIMIT naming it.
  it("a purchase over the monthly limit, which no pre-check can see, ends OVER_LIMIT with the provider's reason", async () => {
    await stack.op('POST', `/sandbox/accounts/${MASTER}/features`, { debitCardL2: true });
    const user = await stack.provider.call(api.createUser, {
      body: { fields: { country: 'US' }, scopes: ['DEBIT_CARD_L2'] },
    });
    await stack.op('POST', `/sandbox/users/${user.id}/approve`);
    // 7,450 of the US monthly 7,500 spent ten days ago: outside the week, inside the month.
    const { state } = stack.sandbox.ctx.store;
    state.orders[`WO_SEED${user.id}`] = {
      id: `WO_SEED${user.id}`,
      reservation: `RS_SEED${user.id}`,
      status: 'COMPLETE',
      transferId: null,
      sourceAmount: '7450',
      sourceCurrency: 'USD',
      destCurrency: 'USD',
      dest: `account:${MASTER}`,
      owner: `user:${user.id}`,
      failureReason: null,
      createdAt: stack.sandbox.ctx.now() - 10 * 86_400_000,
    };
    const input = { ...purchase(await wallet()), sourceAmount: 100, userId: user.id, requireHigherLimits: true };
    const page = await checkout.startAndGetPage(input);
    assert.equal((await checkout.state(input.orderRef)).limits?.weeklyRemaining, '7500', 'the pre-check sees room');
    const { order } = await stack.op<{ order: Order }>(
      'POST',
      `/sandbox/reservations/${page.reservation}/complete`,
      {},
    );
    assertFields(order, { status: 'FAILED', failureReason: 'limits.monthlyLimitReached' });
    const result = await resultWithin(checkout.result(input.orderRef), checkoutWorkflowId(input.orderRef));
    assertFields(result, {
      outcome: 'OVER_LIMIT',
      failureReason: 'limits.monthlyLimitReached',
      orderId: order.id,
      transferId: null,
    });
  });

  it('refuses bad input without starting anything', async () => {
    const dest = await wallet();
    const before = reservations().length;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ sourceAmount: -5 }, 'sourceAmount'],
      [{ dest: 'paymentmethod:PA_1' }, 'dest'],
      [{ sourceCurrency: 'usd' }, 'sourceCurrency'],
      [{ email: 'buyer@example.com' }, 'email'],
      [{ requireHigherLimits: true }, 'userId'],
      [{ redirectUrl: 'not a url' }, 'redirectUrl'],
    ];
    for (const [change, field] of cases) {
      const input = { ...purchase(dest), ...change } as Parameters<CheckoutClient['startAndGetPage']>[0];
      await assert.rejects(
        checkout.startAndGetPage(input),
        (e: unknown) => e instanceof InputRejectedError && e.field === field,
        `refused for ${field}`,
      );
      await assert.rejects(checkout.state(input.orderRef), ProcessNotFoundError, `nothing started for ${field}`);
    }
    await assert.rejects(
      checkout.startAndGetPage(purchase(dest, 'bad ref!')),
      (e: unknown) => e instanceof InputRejectedError && e.field === 'orderRef',
    );
    assert.equal(reservations().length, before);
  });
});
