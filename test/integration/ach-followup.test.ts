import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AchFollowupClient } from '../../workflows/ach-followup/client.js';
import {
  AlreadyFinishedError,
  InputRejectedError,
  ProcessNotFoundError,
  ProviderRefusedError,
} from '../../workflows/lib/client-errors.js';
import * as api from '../../src/provider/endpoints.js';
import { MAX_DOCUMENT_BYTES } from '../../src/provider/schemas/document.js';
import { assertFields } from '../helpers/assert.js';
import { eventually, startStack, type Stack } from '../helpers/stack.js';
import { resultWithin } from '../helpers/result.js';
import { achFollowupWorkflowId } from '../../workflows/ach-followup/messages.js';

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4]);

describe('ACH authorization follow-up (docs/provider-contract.md §3.1)', () => {
  let stack: Stack;
  let ach: AchFollowupClient;
  before(async () => {
    stack = await startStack();
    ach = new AchFollowupClient(stack.client, {
      taskQueue: stack.taskQueue,
      claims: stack.claims,
      timing: stack.timing,
    });
  });
  after(async () => stack?.stop());

  /** How many of the process's reads of its payment method at the provider have completed. */
  async function readsOfTheMethod(workflowId: string): Promise<number> {
    const events = (await stack.client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
    const reads = new Set(
      events
        .filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'readPaymentMethodState')
        .map((e) => String(e.eventId)),
    );
    return events.filter((e) => reads.has(String(e.activityTaskCompletedEventAttributes?.scheduledEventId))).length;
  }

  /** An account with an ACH method that the provider asks a form for. */
  async function methodAwaitingForm() {
    const account = await stack.provider.call(api.createAccount, { body: { country: 'US' } });
    const method = await stack.provider.call(api.createPaymentMethod, {
      body: { paymentMethodType: 'LOCAL_TRANSFER', country: 'US', accountNumber: `0001${Date.now()}`.slice(0, 12) },
      masqueradeAs: account.id,
    });
    await stack.op('POST', `/sandbox/payment-methods/${method.id}/request-ach-form`);
    return { accountId: account.id, paymentMethodId: method.id };
  }

  it('waits for the form, submits it, and ends APPROVED; the source of funds is reported as it moves', async () => {
    const { accountId, paymentMethodId } = await methodAwaitingForm();
    const id = await ach.start({ paymentMethodId, accountId });
    assert.equal(id, `ach-followup:${paymentMethodId}`);
    assert.equal(await ach.start({ paymentMethodId, accountId }), id, 'a second start attaches');
    const waiting = await eventually(async () => {
      const state = await ach.state(paymentMethodId);
      assert.equal(state.stage, 'WAITING_FOR_FORM');
      return state;
    });
    assert.deepEqual(waiting.sourceOfFunds, { status: 'OPEN', note: 'Additional information is required' });
    await eventually(async () => {
      const described = await stack.client.workflow.getHandle(id).describe();
      assert.equal(
        described.typedSearchAttributes.getAll().find((p) => p.key.name === 'WaitingOnEndUser')?.value,
        true,
      );
    });

    const after = await ach.submitForm(paymentMethodId, { bytes: JPEG, contentType: 'image/jpeg' });
    assert.equal(after.formsSubmitted, 1);
    assert.equal(
      stack.sandbox.ctx.store.state.paymentMethods[paymentMethodId]!.method.documents.length,
      1,
      'the provider got the form once',
    );
    await eventually(async () =>
      assert.deepEqual((await ach.state(paymentMethodId)).sourceOfFunds, {
        status: 'PENDING',
        note: 'Payment method is under review',
      }),
    );

    await stack.op('POST', `/sandbox/payment-methods/${paymentMethodId}/approve`);
    const result = await resultWithin(ach.result(paymentMethodId), achFollowupWorkflowId(paymentMethodId));
    assert.equal(result.outcome, 'APPROVED');
    assert.deepEqual(result.sourceOfFunds, { status: 'APPROVED', note: null });
    const history = (await ach.state(paymentMethodId)).sourceOfFundsHistory.map((s) => s.status);
    assert.deepEqual(history, ['OPEN', 'PENDING', 'APPROVED']);
    await assert.rejects(
      ach.submitForm(paymentMethodId, { bytes: JPEG, contentType: 'image/jpeg' }),
      AlreadyFinishedError,
    );
  });

  it('ends REJECTED when the provider rejects the method', async () => {
    const { accountId, paymentMethodId } = await methodAwaitingForm();
    await ach.start({ paymentMethodId, accountId });
    await eventually(async () => assert.equal((await ach.state(paymentMethodId)).stage, 'WAITING_FOR_FORM'));
    await ach.submitForm(paymentMethodId, { bytes: JPEG, contentType: 'image/jpeg' });
    await stack.op('POST', `/sandbox/payment-methods/${paymentMethodId}/reject`, {
      message: 'The form is not legible',
    });
    const result = await resultWithin(ach.result(paymentMethodId), achFollowupWorkflowId(paymentMethodId));
    assertFields(result, { outcome: 'REJECTED', rejectionMessage: 'The form is not legible' });
  });

  it('refuses bad input through the update validator and changes nothing', async () => {
    const { accountId, paymentMethodId } = await methodAwaitingForm();
    await ach.start({ paymentMethodId, accountId });
    await eventually(async () => assert.equal((await ach.state(paymentMethodId)).stage, 'WAITING_FOR_FORM'));
    await assert.rejects(
      ach.submitForm(paymentMethodId, { bytes: JPEG, contentType: 'image/gif' }),
      (e: unknown) => e instanceof InputRejectedError && e.field === 'contentType',
    );
    await assert.rejects(
      ach.submitForm(paymentMethodId, { bytes: Buffer.alloc(MAX_DOCUMENT_BYTES + 1), contentType: 'image/png' }),
      (e: unknown) => e instanceof InputRejectedError && e.field === 'size',
    );
    // Past the client's own check, the workflow's validator is the authority.
    const handle = stack.client.workflow.getHandle(`ach-followup:${paymentMethodId}`);
    await assert.rejects(
      handle.executeUpdate('submitAchForm', {
        args: [{ ref: 'local:abc', size: 10, contentType: 'image/png', sha256: 'nothex' }],
      }),
      (e: Error) => /^sha256: /.test((e.cause as Error)?.message ?? ''),
    );
    assertFields(await ach.state(paymentMethodId), { stage: 'WAITING_FOR_FORM', formsSubmitted: 0 });
    assert.equal(stack.sandbox.ctx.store.state.paymentMethods[paymentMethodId]!.method.documents.length, 0);
    await assert.rejects(
      ach.start({ paymentMethodId: 'AC_1', accountId }),
      (e: unknown) => e instanceof InputRejectedError && e.field === 'paymentMethodId',
    );
    await assert.rejects(ach.state('PA_NOSUCHTHING'), ProcessNotFoundError);
    await handle.terminate('test done');
  });

  it('a form the provider refuses fails only that update: the process goes on and ends well', async () => {
    // Long waits between looks, so that the process does not notice the change before the form arrives.
    const slow = new AchFollowupClient(stack.client, {
      taskQueue: stack.taskQueue,
      claims: stack.claims,
      timing: { ...stack.timing, pollInitialMs: 60_000, pollMaxMs: 60_000 },
    });
    const { accountId, paymentMethodId } = await methodAwaitingForm();
    await slow.start({ paymentMethodId, accountId });
    await eventually(async () => assert.equal((await slow.state(paymentMethodId)).stage, 'WAITING_FOR_FORM'));
    // The wait's first look at the provider (its second read) is over: a change before it would be
    // seen by the process itself, which would stop waiting for the form.
    await eventually(async () =>
      assert.ok((await readsOfTheMethod(achFollowupWorkflowId(paymentMethodId))) >= 2, 'the second read is done'),
    );
    // The provider stops asking for the form (a reviewer decided without it).
    stack.sandbox.ctx.store.state.paymentMethods[paymentMethodId]!.method.waitingPrompts = [];
    await assert.rejects(
      slow.submitForm(paymentMethodId, { bytes: JPEG, contentType: 'image/jpeg' }),
      // The provider's refusal, by its type and code: not our own input check.
      (e: unknown) =>
        e instanceof ProviderRefusedError &&
        e.field === 'form' &&
        /the provider refused it/.test(e.message) &&
        e.refusal.type === 'ValidationException',
    );
    const state = await slow.state(paymentMethodId);
    assert.equal(state.formsSubmitted, 0);
    assert.notEqual(state.stage, 'WAITING_FOR_FORM');
    await stack.op('POST', `/sandbox/payment-methods/${paymentMethodId}/approve`);
    await stack.client.workflow.getHandle(`ach-followup:${paymentMethodId}`).signal('refresh');
    assert.equal(
      (await resultWithin(slow.result(paymentMethodId), achFollowupWorkflowId(paymentMethodId))).outcome,
      'APPROVED',
    );
  });

  it('a provider that moves on while the form is awaited is noticed by polling: REJECTED', async () => {
    const { accountId, paymentMethodId } = await methodAwaitingForm();
    await ach.start({ paymentMethodId, accountId });
    await eventually(async () => assert.equal((await ach.state(paymentMethodId)).stage, 'WAITING_FOR_FORM'));
    await stack.op('POST', `/sandbox/payment-methods/${paymentMethodId}/reject`, { message: 'Closed bank account' });
    assertFields(await resultWithin(ach.result(paymentMethodId), achFollowupWorkflowId(paymentMethodId)), {
      outcome: 'REJECTED',
      rejectionMessage: 'Closed bank account',
    });
  });

  it('a provider that never moves fails the process with a message for the operator, instead of polling forever', async () => {
    const stalling = new AchFollowupClient(stack.client, {
      taskQueue: stack.taskQueue,
      claims: stack.claims,
      timing: { ...stack.timing, stallAfterMs: 800 },
    });
    const account = await stack.provider.call(api.createAccount, { body: { country: 'US' } });
    // PENDING: the provider reviews on its own, and never finishes.
    const method = await stack.provider.call(api.createPaymentMethod, {
      body: { paymentMethodType: 'LOCAL_TRANSFER', country: 'US', accountNumber: '000555666777' },
      masqueradeAs: account.id,
    });
    await stalling.start({ paymentMethodId: method.id, accountId: account.id });
    await assert.rejects(resultWithin(stalling.result(method.id), achFollowupWorkflowId(method.id)), (e: Error) =>
      /ask the provider's support/.test((e.cause as Error)?.message ?? ''),
    );
  });

  it('reminds the end user after a quiet time, and gives up at the deadline', async () => {
    const short = new AchFollowupClient(stack.client, {
      taskQueue: stack.taskQueue,
      claims: stack.claims,
      // A deadline long enough for two reminders on a loaded machine, where a workflow task can wait seconds.
      timing: { ...stack.timing, reminderAfterMs: 300, deadlineMs: 8_000 },
    });
    const { accountId, paymentMethodId } = await methodAwaitingForm();
    await short.start({ paymentMethodId, accountId });
    const result = await resultWithin(short.result(paymentMethodId), achFollowupWorkflowId(paymentMethodId));
    assert.equal(result.outcome, 'EXPIRED');
    const mine = stack.reminders.filter((r) => r.workflowId === `ach-followup:${paymentMethodId}`);
    assert.ok(mine.length >= 2, `reminders were sent (${mine.length})`);
    assert.deepEqual(mine[0]!.waitingFor, ['ACH_FORM']);
  });
});
