import {
  allHandlersFinished,
  condition,
  patched,
  proxyActivities,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { PaymentMethodActivities } from '../../activities/payment-methods.js';
import { AccountId } from '../../src/temporal/search-attributes.js';
import {
  applyMethodState,
  asksForForm,
  type FormAnswer,
  formNotSent,
  newAchState,
  reviewDecision,
  reviewGoesOn,
} from './review.js';
import { PROVIDER_READ, PROVIDER_WRITE } from '../lib/activity-options.js';
import { doneWithClaims } from '../lib/claims.js';
import { startDeadline } from '../lib/deadline.js';
import { idempotencyKey } from '../lib/idempotency.js';
import { achRemindersBeforePatch } from '../lib/legacy-reminders.js';
import { enterStage, pollProvider, rejectInput, showStatus, validate, validateStart } from '../lib/process.js';
import { notSentFailure, sendFailure } from '../lib/refusal.js';
import { remindWhileOwed, sendReminder } from '../lib/reminders.js';
import { REMINDERS_WHILE_OWED_PATCH } from '../patch-ids.js';
import type { ClaimRef } from '../lib/messages.js';
import { checkAchFollowupInput, checkAchForm } from './checks.js';
import { achStateQuery, submitAchFormUpdate } from './messages.js';
import type { AchFollowupInput, AchOutcome, AchResult, AchState } from './messages.js';

// ACH authorization follow-up (docs/provider-contract.md §3.1): a payment method in AWAITING_FOLLOWUP with an ACH_FORM
// prompt waits for the form, submits it through the follow-up endpoint, then waits for the review:
// APPROVED or ACTIVE ends it well, REJECTED ends it badly. The account's individualSourceOfFunds
// is reported as it moves. What the method's state asks for is decided in ach-followup/review.ts.

const provider = proxyActivities<PaymentMethodActivities>(PROVIDER_READ);
const submit = proxyActivities<PaymentMethodActivities>(PROVIDER_WRITE);

export async function achFollowupWorkflow(raw: AchFollowupInput): Promise<AchResult> {
  const input = validateStart(checkAchFollowupInput, raw);
  const { paymentMethodId, accountId } = input;
  const { workflowId } = workflowInfo();
  const state = newAchState(paymentMethodId);
  let form: ClaimRef | undefined;
  // Every form the update accepted gets an answer: sent, or why not.
  let answer: FormAnswer | undefined;
  let rejectionMessage: string | null = null;

  setHandler(achStateQuery, () => state);
  setHandler(submitAchFormUpdate, receiveForm, { validator: checkForm });
  const pollUntil = pollProvider(input.timing);

  upsertSearchAttributes([{ key: AccountId, value: accountId }]);
  // The end user's time runs from the start; the deadline is configuration.
  const deadlinePassed = startDeadline(input.timing.deadlineMs);
  const formAwaited = () => state.stage === 'WAITING_FOR_FORM' && form === undefined;
  const remind = () => sendReminder(state, { process: 'ach-followup', workflowId, waitingFor: ['ACH_FORM'] });
  const remindersShared = patched(REMINDERS_WHILE_OWED_PATCH);
  if (remindersShared) {
    void remindWhileOwed({
      afterMs: input.timing.reminderAfterMs,
      owed: formAwaited,
      over: () => state.stage === 'DONE',
      remind,
    });
  }

  enterStage(state, 'CHECKING', { waitingOnEndUser: false });
  for (;;) {
    const method = await pollUntil({
      read,
      done: (seen) => !reviewGoesOn(seen),
      what: 'the review of the payment method',
    });
    const decision = reviewDecision(method.status);
    if (decision) return finish(decision);

    // The end user owes the form. The wait keeps looking at the provider, which may move on without it.
    enterStage(state, 'WAITING_FOR_FORM', { waitingOnEndUser: true });
    if (!remindersShared) void achRemindersBeforePatch(input.timing.reminderAfterMs, formAwaited, remind);
    await pollUntil({
      read,
      done: (seen) => !asksForForm(seen),
      wake: () => form !== undefined || deadlinePassed(),
      what: 'the ACH form',
    });
    if (form === undefined) {
      if (deadlinePassed()) return finish('EXPIRED');
      enterStage(state, 'CHECKING', { waitingOnEndUser: false });
      continue;
    }
    await submitForm(form);
  }

  async function read() {
    const method = await provider.readPaymentMethodState({ paymentMethodId, accountId });
    applyMethodState(state, method);
    rejectionMessage = method.rejectionMessage;
    return method;
  }

  async function submitForm(sent: ClaimRef): Promise<void> {
    enterStage(state, 'SUBMITTING', { waitingOnEndUser: false });
    state.formsSubmitted += 1;
    try {
      // The form's digest and the run chain in the key: a retry sends the same form once; a later
      // round under the same workflow id (even with the same file) is another submission.
      const step = `ach-form/${workflowInfo().firstExecutionRunId}/${sent.sha256}/${state.formsSubmitted}`;
      await submit.submitAchForm({
        paymentMethodId,
        accountId,
        form: sent,
        idempotencyKey: idempotencyKey(workflowId, step),
      });
      // The update answers with the provider's view after the form (source of funds under review).
      await read();
      answerForm();
      enterStage(state, 'UNDER_REVIEW', { waitingOnEndUser: false });
    } catch (err) {
      const failure = sendFailure(err);
      if (failure === null) throw err;
      // Refused (the method moved on, say) or not delivered: the update fails, the process goes on.
      state.formsSubmitted -= 1;
      answerForm({ error: formNotSent(failure), failure });
      enterStage(state, 'CHECKING', { waitingOnEndUser: false });
    }
    // Taken, refused or not delivered, the form in the claim store is needed no longer (a form
    // handed in again is a new claim).
    await doneWithClaims([sent]);
  }

  async function finish(outcome: AchOutcome): Promise<AchResult> {
    answerForm({ error: `the process ended (${outcome}) before the form could be sent` });
    enterStage(state, 'DONE', { waitingOnEndUser: false });
    state.outcome = outcome;
    showStatus(outcome, { waitingOnEndUser: false });
    await condition(allHandlersFinished);
    return { outcome, paymentMethodId, sourceOfFunds: state.sourceOfFunds, rejectionMessage };
  }

  function checkForm(submitted: ClaimRef): void {
    validate(checkAchForm, submitted);
    if (state.stage !== 'WAITING_FOR_FORM' || form !== undefined) {
      rejectInput('form', `no form is awaited now: the process is ${state.stage}`);
    }
  }

  /** Takes the form; answers once the provider took it, or with why it did not. */
  async function receiveForm(submitted: ClaimRef): Promise<AchState> {
    form = submitted;
    answer = undefined;
    await condition(() => answer !== undefined);
    const { error, failure } = answer!;
    answer = undefined;
    if (error) throw notSentFailure('form', error, failure ?? null);
    return state;
  }

  /** Answers the update that handed in the form: taken (no argument), or why not. */
  function answerForm(failed: FormAnswer = {}): void {
    if (form === undefined) return;
    form = undefined;
    answer = failed;
  }
}
