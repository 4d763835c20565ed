import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { request } from 'undici';
import { AlreadyFinishedError, InputRejectedError, ProcessNotFoundError } from '../../workflows/lib/client-errors.js';
import { OnboardingClient } from '../../workflows/onboarding/client.js';
import { assertFields } from '../helpers/assert.js';
import { eventually, startStack, type Stack } from '../helpers/stack.js';
import { resultWithin } from '../helpers/result.js';
import { onboardingWorkflowId } from '../../workflows/onboarding/messages.js';

const MASTER = 'AC_SANDBOXMASTER';

describe('Onboarding for higher limits (docs/provider-contract.md §2.7, §2.8, §8)', () => {
  let stack: Stack;
  let onboarding: OnboardingClient;
  before(async () => {
    stack = await startStack();
    onboarding = new OnboardingClient(stack.client, { taskQueue: stack.taskQueue, timing: stack.timing });
    // docs/provider-contract.md §8 rule 2: the operator configures DEBIT_CARD_L2 for the master account first.
    await stack.op('POST', `/sandbox/accounts/${MASTER}/features`, { debitCardL2: true });
  });
  after(async () => stack?.stop());

  const newRef = () => `user-${randomUUID().slice(0, 8)}`;
  const searchAttribute = async (workflowId: string, name: string) =>
    (await stack.client.workflow.getHandle(workflowId).describe()).typedSearchAttributes
      .getAll()
      .find((p) => p.key.name === name)?.value;
  const linksOf = (userId: string) =>
    Object.values(stack.sandbox.ctx.store.state.onboardingLinks).filter((l) => l.userId === userId).length;

  it('creates a DEBIT_CARD_L2 user, hands out a new link per request, and ends APPROVED with the higher limits', async () => {
    const userRef = newRef();
    const id = await onboarding.start({ userRef, country: 'US' });
    assert.equal(id, `onboarding:${userRef}`);
    assert.equal(await onboarding.start({ userRef, country: 'US' }), id, 'a second start attaches');

    const waiting = await eventually(async () => {
      const state = await onboarding.state(userRef);
      assert.equal(state.stage, 'WAITING_FOR_USER');
      return state;
    });
    const userId = waiting.userId!;
    assert.match(userId, /^US[-_]/);
    assert.deepEqual(stack.sandbox.ctx.store.state.users[userId]!.user.scopes, ['DEBIT_CARD_L2']);
    assert.equal(Object.values(stack.sandbox.ctx.store.state.users).filter((u) => u.user.id === userId).length, 1);
    await eventually(async () => {
      assert.equal(await searchAttribute(id, 'UserId'), userId);
      assert.equal(await searchAttribute(id, 'WaitingOnEndUser'), true);
    });

    // Never cached: each request is a new link from the provider.
    const first = await onboarding.onboardingLink(userRef);
    const second = await onboarding.onboardingLink(userRef);
    assert.notEqual(first, second);
    assert.equal(linksOf(userId), 2);
    assert.equal((await onboarding.state(userRef)).linksHandedOut, 2);

    // The end user opens the link and submits: the provider reviews it.
    const page = await request(second, { method: 'POST' });
    assert.equal(page.statusCode, 200);
    await page.body.text();
    await eventually(async () => {
      assertFields(await onboarding.state(userRef), { userStatus: 'PENDING', stage: 'UNDER_REVIEW' });
      assert.equal(await searchAttribute(id, 'WaitingOnEndUser'), false);
    });

    await stack.op('POST', `/sandbox/users/${userId}/approve`);
    const result = await resultWithin(onboarding.result(userRef), onboardingWorkflowId(userRef));
    assert.equal(result.outcome, 'APPROVED');
    assert.equal(result.userId, userId);
    assertFields(result.limits, { weeklyTotal: '7500', yearlyTotal: '100000' });
    await assert.rejects(onboarding.onboardingLink(userRef), AlreadyFinishedError);
    assert.equal(linksOf(userId), 2, 'no link was fetched for the refused request');
  });

  it('ends LIMITS_NOT_RAISED when the user is approved but the calculation shows standard limits', async () => {
    const userRef = newRef();
    await onboarding.start({ userRef, country: 'US' });
    const { userId } = await eventually(async () => {
      const state = await onboarding.state(userRef);
      assert.equal(state.stage, 'WAITING_FOR_USER');
      return state;
    });
    // The operator withdraws the scope's configuration (docs/provider-contract.md §8 rule 2): approval alone raises nothing.
    await stack.op('POST', `/sandbox/accounts/${MASTER}/features`, { debitCardL2: false });
    try {
      await stack.op('POST', `/sandbox/users/${userId}/approve`);
      const result = await resultWithin(onboarding.result(userRef), onboardingWorkflowId(userRef));
      assertFields(result, { outcome: 'LIMITS_NOT_RAISED', limits: { weeklyTotal: '1000' } });
    } finally {
      await stack.op('POST', `/sandbox/accounts/${MASTER}/features`, { debitCardL2: true });
    }
  });

  it('reminds the end user after a quiet time and ends EXPIRED at the deadline', async () => {
    // Room for two reminders under CI's load, each a timer, an activity and workflow tasks.
    const short = new OnboardingClient(stack.client, {
      taskQueue: stack.taskQueue,
      timing: { ...stack.timing, reminderAfterMs: 300, deadlineMs: 8_000 },
    });
    const userRef = newRef();
    await short.start({ userRef, country: 'DE' });
    const result = await resultWithin(short.result(userRef), onboardingWorkflowId(userRef));
    assert.equal(result.outcome, 'EXPIRED');
    assert.equal(result.limits, null);
    const mine = stack.reminders.filter((r) => r.workflowId === `onboarding:${userRef}`);
    assert.ok(mine.length >= 2, `reminders were sent (${mine.length})`);
    assertFields(mine[0], { process: 'onboarding', waitingFor: ['ONBOARDING'] });
    assert.equal((await short.state(userRef)).reminders, mine.length);
  });

  it('refuses bad input to start and to the link request, and changes nothing', async () => {
    const userRef = newRef();
    await assert.rejects(
      onboarding.start({ userRef, country: 'usa' }),
      (e: unknown) => e instanceof InputRejectedError && e.field === 'country',
    );
    await assert.rejects(
      onboarding.start({ userRef: 'has space', country: 'US' }),
      (e: unknown) => e instanceof InputRejectedError && e.field === 'userRef',
    );
    await assert.rejects(onboarding.state(userRef), ProcessNotFoundError, 'nothing was started');

    await onboarding.start({ userRef, country: 'US' });
    const { userId } = await eventually(async () => {
      const state = await onboarding.state(userRef);
      assert.equal(state.stage, 'WAITING_FOR_USER');
      return state;
    });
    await assert.rejects(
      onboarding.onboardingLink('bad ref!'),
      (e: unknown) => e instanceof InputRejectedError && e.field === 'userRef',
    );
    // Past the client's own check, the workflow's validator is the authority.
    const handle = stack.client.workflow.getHandle(`onboarding:${userRef}`);
    await assert.rejects(handle.executeUpdate('onboardingLink', { args: [{ userRef: 'someone-else' }] }), (e: Error) =>
      /^userRef: this process onboards/.test((e.cause as Error)?.message ?? ''),
    );
    await assert.rejects(handle.executeUpdate('onboardingLink', { args: [{}] }), (e: Error) =>
      /^userRef: /.test((e.cause as Error)?.message ?? ''),
    );
    assert.equal((await onboarding.state(userRef)).linksHandedOut, 0);
    assert.equal(linksOf(userId!), 0);
    await handle.terminate('test done');
  });

  it('refuses a link request while the user does not exist yet', async () => {
    // The provider is slow to create the user: the process has no user to fetch a link for.
    await stack.op('PUT', '/sandbox/knobs/faults', { route: 'POST /v3/users', latencyMs: 3_000 });
    try {
      const userRef = newRef();
      await onboarding.start({ userRef, country: 'US' });
      await eventually(async () => assert.equal((await onboarding.state(userRef)).stage, 'CREATING_USER'));
      await assert.rejects(
        onboarding.onboardingLink(userRef),
        (e: unknown) => e instanceof InputRejectedError && e.field === 'userRef' && /not created yet/.test(e.message),
      );
      const created = await eventually(async () => {
        const state = await onboarding.state(userRef);
        assert.equal(state.stage, 'WAITING_FOR_USER');
        return state;
      });
      assert.equal(created.linksHandedOut, 0);
      assert.match(await onboarding.onboardingLink(userRef), /^http/, 'once the user exists, the link comes');
      await stack.client.workflow.getHandle(`onboarding:${userRef}`).terminate('test done');
    } finally {
      await stack.operator('PUT', '/sandbox/knobs/faults', { route: 'POST /v3/users', latencyMs: 0 });
    }
  });
});
