import { ActivityFailure, allHandlersFinished, ApplicationFailure, condition, proxyActivities, setHandler, sleep, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { NotifyActivities } from '../activities/notify.js';
import type { PaymentMethodActivities } from '../activities/payment-methods.js';
import { AccountId } from '../src/temporal/search-attributes.js';
import { doneWithClaims } from './lib/claims.js';
import { idempotencyKey } from './lib/idempotency.js';
import { CREATION_RETRY } from './lib/retry.js';
import { pollProvider, rejectInput, showStatus, validate } from './lib/process.js';
import { type ClaimRef, INPUT_REJECTED } from './messages/common.js';
import { achFollowupInput, achForm, type AchFollowupInput, type AchOutcome, type AchResult, type AchState, achStateQuery, submitAchFormUpdate } from './messages/ach-followup.js';

// ACH authorization follow-up (spec 3.1): a payment method in AWAITING_FOLLOWUP with an ACH_FORM
// prompt waits for the form, submits it through the follow-up endpoint, then waits for the review:
// APPROVED or ACTIVE ends it well, REJECTED ends it badly. The account's individualSourceOfFunds
// is reported as it moves.

// Reads and reminders retry without limit: repeating them is harmless, and every wait on the
// provider is bounded by the stall limit. Submitting the form is bounded (CREATION_RETRY).
const provider = proxyActivities<PaymentMethodActivities & NotifyActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1 minute' },
});
const submit = proxyActivities<PaymentMethodActivities>({ startToCloseTimeout: '1 minute', retry: CREATION_RETRY });

export async function achFollowupWorkflow(raw: AchFollowupInput): Promise<AchResult> {
  // A start that bypasses the client and sends bad input fails the run cleanly, not its tasks forever.
  const input = validate(achFollowupInput, raw);
  const { paymentMethodId, accountId } = input;
  const { workflowId } = workflowInfo();
  const state: AchState = { paymentMethodId, stage: 'CHECKING', paymentMethodStatus: null, sourceOfFunds: null, sourceOfFundsHistory: [], formsSubmitted: 0, reminders: 0, outcome: null };
  let form: ClaimRef | undefined;
  // Every form the update accepted gets an answer: sent, or refused with the reason.
  let answer: { refused?: string } | undefined;
  let rejectionMessage: string | null = null;
  let expired = false;

  setHandler(achStateQuery, () => state);
  setHandler(
    submitAchFormUpdate,
    async (f) => {
      form = f;
      answer = undefined;
      await condition(() => answer !== undefined);
      const { refused } = answer!;
      answer = undefined;
      if (refused) throw ApplicationFailure.create({ type: INPUT_REJECTED, message: `form: ${refused}`, details: [{ field: 'form' }], nonRetryable: true });
      return state;
    },
    {
      validator: (f) => {
        validate(achForm, f);
        if (state.stage !== 'WAITING_FOR_FORM' || form !== undefined) rejectInput('form', `no form is awaited now: the process is ${state.stage}`);
      },
    },
  );
  const answerForm = (refused?: string) => {
    if (form === undefined) return;
    form = undefined;
    answer = refused ? { refused } : {};
  };

  const pollUntil = pollProvider(input.timing);
  const read = async () => {
    const s = await provider.readPaymentMethodState({ paymentMethodId, accountId });
    state.paymentMethodStatus = s.status;
    rejectionMessage = s.rejectionMessage;
    const prev = state.sourceOfFunds;
    state.sourceOfFunds = s.sourceOfFunds;
    if (s.sourceOfFunds && (prev?.status !== s.sourceOfFunds.status || prev?.note !== s.sourceOfFunds.note)) state.sourceOfFundsHistory.push(s.sourceOfFunds);
    return s;
  };
  const stage = (name: AchState['stage'], waitingOnEndUser = false) => {
    state.stage = name;
    showStatus(name, waitingOnEndUser);
  };
  const finish = async (outcome: AchOutcome): Promise<AchResult> => {
    answerForm(`the process ended (${outcome}) before the form could be sent`);
    stage('DONE');
    state.outcome = outcome;
    showStatus(outcome, false);
    await condition(allHandlersFinished);
    return { outcome, paymentMethodId, sourceOfFunds: state.sourceOfFunds, rejectionMessage };
  };
  const asksForForm = (s: { status: string; waitingFor: string[] }) => s.status === 'AWAITING_FOLLOWUP' && s.waitingFor.includes('ACH_FORM');
  // A quiet time without the form earns the end user a reminder, beside the wait itself.
  const remindWhileWaiting = async () => {
    while (!(await condition(() => state.stage !== 'WAITING_FOR_FORM' || form !== undefined, input.timing.reminderAfterMs))) {
      state.reminders += 1;
      await provider.sendReminder({ process: 'ach-followup', workflowId, waitingFor: ['ACH_FORM'], count: state.reminders });
    }
  };

  upsertSearchAttributes([{ key: AccountId, value: accountId }]);
  // The end user's time runs from the start; the deadline is configuration.
  void sleep(input.timing.deadlineMs).then(() => {
    expired = true;
  });

  stage('CHECKING');
  for (;;) {
    // PENDING (the service reviews on its own) and a submitted form under review both mean: wait.
    const s = await pollUntil(read, (v) => v.status !== 'PENDING' && !(v.status === 'AWAITING_FOLLOWUP' && !asksForForm(v)), undefined, 'the review of the payment method');
    if (s.status === 'APPROVED' || s.status === 'ACTIVE' || s.status === 'REJECTED') return finish(s.status);

    // AWAITING_FOLLOWUP with the ACH_FORM prompt: the end user owes the form. The wait keeps
    // looking at the provider, which may move on without it.
    stage('WAITING_FOR_FORM', true);
    void remindWhileWaiting();
    await pollUntil(read, (v) => !asksForForm(v), () => form !== undefined || expired, 'the ACH form');
    if (form === undefined) {
      if (expired) return finish('EXPIRED');
      stage('CHECKING');
      continue;
    }

    stage('SUBMITTING');
    state.formsSubmitted += 1;
    const sent = form;
    try {
      // The form's digest and the run chain in the key: a retry sends the same form once; a later
      // round under the same workflow id (even with the same file) is another submission.
      await submit.submitAchForm({ paymentMethodId, accountId, form, idempotencyKey: idempotencyKey(workflowId, `ach-form/${workflowInfo().firstExecutionRunId}/${form.sha256}/${state.formsSubmitted}`) });
      // The update answers with the provider's view after the form (source of funds under review).
      await read();
      answerForm();
      stage('UNDER_REVIEW');
    } catch (err) {
      if (!(err instanceof ActivityFailure)) throw err;
      // The provider refused the form (the method moved on, say): the update fails, the process goes on.
      state.formsSubmitted -= 1;
      answerForm(`the provider refused it: ${err.cause?.message ?? err.message}`);
      stage('CHECKING');
    }
    // Taken or refused, the form in the claim store is needed no longer (a new one is a new claim).
    await doneWithClaims([sent]);
  }
}
