import { condition, proxyActivities, setHandler, sleep, workflowInfo } from '@temporalio/workflow';
import type { NotifyActivities } from '../activities/notify';
import type { PaymentMethodActivities } from '../activities/payment-methods';
import { poller, rejectInput, showStatus, validate } from './lib/process';
import type { ClaimRef } from './messages/common';
import { achFollowupInput, achForm, type AchFollowupInput, type AchOutcome, type AchResult, type AchState, achStateQuery, submitAchFormUpdate } from './messages/ach-followup';

// ACH authorization follow-up (spec 3.1): a payment method in AWAITING_FOLLOWUP with an ACH_FORM
// prompt waits for the form, submits it through the follow-up endpoint, then waits for the review:
// APPROVED or ACTIVE ends it well, REJECTED ends it badly. The account's individualSourceOfFunds
// is reported as it moves.

const provider = proxyActivities<PaymentMethodActivities & NotifyActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

export async function achFollowupWorkflow(raw: AchFollowupInput): Promise<AchResult> {
  const input = achFollowupInput.parse(raw);
  const { paymentMethodId, accountId } = input;
  const state: AchState = { paymentMethodId, stage: 'CHECKING', paymentMethodStatus: null, sourceOfFunds: null, sourceOfFundsHistory: [], formsSubmitted: 0, reminders: 0, outcome: null };
  let form: ClaimRef | undefined;
  let rejectionMessage: string | null = null;
  let expired = false;

  setHandler(achStateQuery, () => state);
  setHandler(
    submitAchFormUpdate,
    async (f) => {
      form = f;
      // Answer once the form has gone to the provider, with where the process then stands.
      await condition(() => form === undefined || state.stage === 'DONE');
      return state;
    },
    {
      validator: (f) => {
        validate(achForm, f);
        if (state.stage !== 'WAITING_FOR_FORM' || form !== undefined) rejectInput('form', `no form is awaited now: the process is ${state.stage}`);
      },
    },
  );

  const pollUntil = poller(input.timing);
  const read = async () => {
    const s = await provider.readPaymentMethodState({ paymentMethodId, accountId });
    state.paymentMethodStatus = s.status;
    rejectionMessage = s.rejectionMessage;
    const prev = state.sourceOfFunds;
    state.sourceOfFunds = s.sourceOfFunds;
    if (s.sourceOfFunds && (prev?.status !== s.sourceOfFunds.status || prev?.note !== s.sourceOfFunds.note)) state.sourceOfFundsHistory.push(s.sourceOfFunds);
    return s;
  };
  const finish = (outcome: AchOutcome): AchResult => {
    state.stage = 'DONE';
    state.outcome = outcome;
    showStatus(outcome, false);
    return { outcome, paymentMethodId, sourceOfFunds: state.sourceOfFunds, rejectionMessage };
  };
  const asksForForm = (s: { status: string; waitingFor: string[] }) => s.status === 'AWAITING_FOLLOWUP' && s.waitingFor.includes('ACH_FORM');
  // The end user's time runs from the start; the deadline is configuration.
  void sleep(input.timing.deadlineMs).then(() => {
    expired = true;
  });

  showStatus('CHECKING', false);
  for (;;) {
    // PENDING (the service reviews on its own) and a submitted form under review both mean: wait.
    const s = await pollUntil(read, (v) => v.status !== 'PENDING' && !(v.status === 'AWAITING_FOLLOWUP' && !asksForForm(v)));
    if (s.status === 'APPROVED' || s.status === 'ACTIVE' || s.status === 'REJECTED') return finish(s.status);

    // AWAITING_FOLLOWUP with the ACH_FORM prompt: the end user owes the form.
    state.stage = 'WAITING_FOR_FORM';
    showStatus('WAITING_FOR_FORM', true);
    while (form === undefined) {
      // A quiet time without the form earns the end user a reminder.
      const gotForm = await condition(() => form !== undefined || expired, input.timing.reminderAfterMs);
      if (expired && form === undefined) return finish('EXPIRED');
      if (!gotForm) {
        state.reminders += 1;
        await provider.sendReminder({ process: 'ach-followup', workflowId: workflowInfo().workflowId, waitingFor: ['ACH_FORM'], count: state.reminders });
        // Meanwhile the provider may have moved on without the form.
        const now = await read();
        if (!asksForForm(now)) break;
      }
    }
    if (form === undefined) continue;

    state.stage = 'SUBMITTING';
    showStatus('SUBMITTING', false);
    state.formsSubmitted += 1;
    await provider.submitAchForm({ paymentMethodId, accountId, form, idempotencyKey: `${workflowInfo().workflowId}/ach-form/${state.formsSubmitted}` });
    // The update answers with the provider's view after the form (source of funds under review).
    await read();
    form = undefined;
    state.stage = 'UNDER_REVIEW';
    showStatus('UNDER_REVIEW', false);
  }
}
