import { allHandlersFinished, condition, proxyActivities, setHandler, sleep, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { NotifyActivities } from '../activities/notify.js';
import type { UserActivities } from '../activities/users.js';
import { UserId } from '../src/temporal/search-attributes.js';
import { idempotencyKey } from './lib/idempotency.js';
import { CREATION_RETRY } from './lib/retry.js';
import { pollProvider, rejectInput, showStatus, validate } from './lib/process.js';
import {
  higherLimitsFor,
  onboardingInput,
  type OnboardingInput,
  onboardingLinkRequest,
  onboardingLinkUpdate,
  type OnboardingOutcome,
  type OnboardingResult,
  type OnboardingState,
  onboardingStateQuery,
  type UserStatus,
} from './messages/onboarding.js';

// Onboarding for higher limits (spec 2.7, 2.8, 8): creates a user with the DEBIT_CARD_L2 scope,
// hands out onboarding links on request, waits until the provider approves the user, then
// confirms through the limits calculation (spec 4.6) that the higher limits really apply.

// Reads and reminders retry without limit (harmless to repeat; waits are bounded by the stall
// limit); creating the user is bounded (CREATION_RETRY).
const provider = proxyActivities<UserActivities & NotifyActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1 minute' },
});
const create = proxyActivities<UserActivities>({ startToCloseTimeout: '1 minute', retry: CREATION_RETRY });

// The link is fetched while a person waits on the update: a provider in trouble gets 30 seconds,
// then the update fails and can be asked again, instead of holding the caller (and the run) open.
const linkFetch = proxyActivities<UserActivities>({
  startToCloseTimeout: '10 seconds',
  scheduleToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500ms', backoffCoefficient: 2 },
});

export async function onboardingWorkflow(raw: OnboardingInput): Promise<OnboardingResult> {
  // A start that bypasses the client and sends bad input fails the run cleanly, not its tasks forever.
  const input = validate(onboardingInput, raw);
  const { workflowId } = workflowInfo();
  const state: OnboardingState = { userRef: input.userRef, stage: 'CREATING_USER', userId: null, userStatus: null, linksHandedOut: 0, reminders: 0, limits: null, outcome: null };
  // Bumped by anything the end user does (a link asked for, a status that moved): resets the quiet time.
  let activity = 0;
  let expired = false;

  setHandler(onboardingStateQuery, () => state);
  setHandler(
    onboardingLinkUpdate,
    async () => {
      // Never cached: a link lives 30 minutes (spec 4.7), so every request fetches a new one.
      const link = await linkFetch.fetchOnboardingLink({ userId: state.userId! });
      state.linksHandedOut += 1;
      activity += 1;
      return { url: link.url };
    },
    {
      validator: (req) => {
        const { userRef } = validate(onboardingLinkRequest, req);
        if (userRef !== input.userRef) rejectInput('userRef', `this process onboards ${input.userRef}, not ${userRef}`);
        if (state.userId === null) rejectInput('userRef', 'the user is not created yet; ask again in a moment');
        if (state.stage === 'DONE' || state.stage === 'CONFIRMING_LIMITS') rejectInput('userRef', `onboarding is over: the user is ${state.userStatus}`);
      },
    },
  );

  const finish = async (outcome: OnboardingOutcome): Promise<OnboardingResult> => {
    state.stage = 'DONE';
    state.outcome = outcome;
    showStatus(outcome, false);
    // A link request already accepted still gets its answer.
    await condition(allHandlersFinished);
    return { outcome, userId: state.userId!, limits: state.limits };
  };

  showStatus('CREATING_USER', false);
  const user = await create.createHigherLimitsUser({ country: input.country, idempotencyKey: idempotencyKey(workflowId, 'create-user') });
  state.userId = user.userId;
  upsertSearchAttributes([{ key: UserId, value: user.userId }]);

  // The end user's time runs from the start; the deadline is configuration.
  void sleep(input.timing.deadlineMs).then(() => {
    expired = true;
  });

  const see = (status: UserStatus) => {
    if (status === state.userStatus) return;
    state.userStatus = status;
    activity += 1;
    // OPEN: the end user owes the verification; PENDING: they submitted it and the provider reviews.
    if (status === 'OPEN' || status === 'PENDING') {
      state.stage = status === 'OPEN' ? 'WAITING_FOR_USER' : 'UNDER_REVIEW';
      showStatus(state.stage, status === 'OPEN');
    }
  };
  see(user.status);

  // A quiet time while the end user owes the verification earns a reminder.
  void (async () => {
    while (state.stage === 'WAITING_FOR_USER' || state.stage === 'UNDER_REVIEW') {
      const seen = activity;
      const moved = await condition(() => activity !== seen || expired || (state.stage !== 'WAITING_FOR_USER' && state.stage !== 'UNDER_REVIEW'), input.timing.reminderAfterMs);
      if (!moved && state.stage === 'WAITING_FOR_USER') {
        state.reminders += 1;
        await provider.sendReminder({ process: 'onboarding', workflowId, waitingFor: ['ONBOARDING'], count: state.reminders });
      }
      if (expired) return;
    }
  })();

  const pollUntil = pollProvider(input.timing);
  const read = async () => {
    const s = await provider.readUserStatus({ userId: user.userId });
    see(s.status);
    return s;
  };
  const s = await pollUntil(read, (v) => v.status === 'APPROVED' || v.status === 'CLOSED', () => expired);
  if (s.status === 'CLOSED') return finish('CLOSED');
  if (s.status !== 'APPROVED') return finish('EXPIRED');

  // Approval alone is not the goal: the calculation must show the higher limits (spec 8 rule 1).
  state.stage = 'CONFIRMING_LIMITS';
  showStatus('CONFIRMING_LIMITS', false);
  state.limits = await provider.calculateUserLimits({ userId: user.userId });
  const expected = higherLimitsFor(input.country);
  const raised = state.limits.weeklyTotal >= expected.weekly && state.limits.yearlyTotal >= expected.yearly;
  return finish(raised ? 'APPROVED' : 'LIMITS_NOT_RAISED');
}
