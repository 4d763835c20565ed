import {
  allHandlersFinished,
  condition,
  patched,
  proxyActivities,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { UserActivities } from '../../activities/users.js';
import { atLeast } from '../../src/provider/limits.js';
import { UserId } from '../../src/temporal/search-attributes.js';
import { PROVIDER_READ, PROVIDER_WRITE, WHILE_A_PERSON_WAITS } from '../lib/activity-options.js';
import { limitsView } from '../lib/amounts-view.js';
import { startDeadline } from '../lib/deadline.js';
import { idempotencyKey } from '../lib/idempotency.js';
import { onboardingRemindersBeforePatch } from '../lib/legacy-reminders.js';
import { enterStage, pollProvider, rejectInput, showStatus, validate, validateStart } from '../lib/process.js';
import { remindWhileOwed, sendReminder } from '../lib/reminders.js';
import { REMINDERS_WHILE_OWED_PATCH } from '../patch-ids.js';
import { checkOnboardingInput, checkOnboardingLinkRequest } from './checks.js';
import {
  higherLimitsFor,
  type OnboardingInput,
  onboardingLinkUpdate,
  type OnboardingOutcome,
  type OnboardingResult,
  type OnboardingState,
  onboardingStateQuery,
  type UserStatus,
} from './messages.js';

// Onboarding for higher limits (docs/provider-contract.md §2.7, §2.8, §8): creates a user with the
// DEBIT_CARD_L2 scope, hands out onboarding links on request, waits until the provider approves the
// user, then confirms through the limits calculation (§4.6) that the higher limits apply.

const provider = proxyActivities<UserActivities>(PROVIDER_READ);
const create = proxyActivities<UserActivities>(PROVIDER_WRITE);
const linkFetch = proxyActivities<UserActivities>(WHILE_A_PERSON_WAITS);

export async function onboardingWorkflow(raw: OnboardingInput): Promise<OnboardingResult> {
  const input = validateStart(checkOnboardingInput, raw);
  const { workflowId } = workflowInfo();
  const state: OnboardingState = {
    userRef: input.userRef,
    stage: 'CREATING_USER',
    userId: null,
    userStatus: null,
    linksHandedOut: 0,
    reminders: 0,
    limits: null,
    outcome: null,
  };
  // Bumped by anything the end user does (a link asked for, a status that moved): resets the quiet time.
  let heard = 0;

  // Old runs hold limits as numbers: the query shows decimal strings (the state stays as recorded).
  setHandler(onboardingStateQuery, () => ({ ...state, limits: limitsView(state.limits) }));
  setHandler(onboardingLinkUpdate, handOutLink, { validator: checkLinkRequest });

  showStatus('CREATING_USER', { waitingOnEndUser: false });
  const idempotency = idempotencyKey(workflowId, 'create-user');
  const user = await create.createHigherLimitsUser({ country: input.country, idempotencyKey: idempotency });
  state.userId = user.userId;
  upsertSearchAttributes([{ key: UserId, value: user.userId }]);

  // The end user's time runs from the start; the deadline is configuration.
  const deadlinePassed = startDeadline(input.timing.deadlineMs);
  see(user.status);
  remindWhileUserOwesVerification();

  const pollUntil = pollProvider(input.timing);
  const read = async () => {
    const seen = await provider.readUserStatus({ userId: user.userId });
    see(seen.status);
    return seen;
  };
  const decided = await pollUntil({
    read,
    done: (seen) => seen.status === 'APPROVED' || seen.status === 'CLOSED',
    wake: deadlinePassed,
  });
  if (decided.status === 'CLOSED') return finish('CLOSED');
  if (decided.status !== 'APPROVED') return finish('EXPIRED');

  // Approval alone is not the goal: the calculation must show the higher limits (docs/provider-contract.md §8 rule 1).
  enterStage(state, 'CONFIRMING_LIMITS', { waitingOnEndUser: false });
  state.limits = await provider.calculateUserLimits({ userId: user.userId });
  const expected = higherLimitsFor(input.country);
  const raised =
    atLeast(state.limits.weeklyTotal, expected.weekly) && atLeast(state.limits.yearlyTotal, expected.yearly);
  return finish(raised ? 'APPROVED' : 'LIMITS_NOT_RAISED');

  /** OPEN: the end user owes the verification; PENDING: they submitted it and the provider reviews. */
  function see(status: UserStatus): void {
    if (status === state.userStatus) return;
    state.userStatus = status;
    heard += 1;
    if (status === 'OPEN') enterStage(state, 'WAITING_FOR_USER', { waitingOnEndUser: true });
    if (status === 'PENDING') enterStage(state, 'UNDER_REVIEW', { waitingOnEndUser: false });
  }

  function remindWhileUserOwesVerification(): void {
    const owed = () => state.stage === 'WAITING_FOR_USER';
    const remind = () => sendReminder(state, { process: 'onboarding', workflowId, waitingFor: ['ONBOARDING'] });
    if (patched(REMINDERS_WHILE_OWED_PATCH)) {
      const over = () => deadlinePassed() || state.stage === 'CONFIRMING_LIMITS' || state.stage === 'DONE';
      void remindWhileOwed({ afterMs: input.timing.reminderAfterMs, owed, over, heard: () => heard, remind });
      return;
    }
    const followed = () => state.stage === 'WAITING_FOR_USER' || state.stage === 'UNDER_REVIEW';
    const legacy = {
      afterMs: input.timing.reminderAfterMs,
      followed,
      owed,
      heard: () => heard,
      expired: deadlinePassed,
      remind,
    };
    void onboardingRemindersBeforePatch(legacy);
  }

  async function finish(outcome: OnboardingOutcome): Promise<OnboardingResult> {
    state.stage = 'DONE';
    state.outcome = outcome;
    showStatus(outcome, { waitingOnEndUser: false });
    // A link request already accepted still gets its answer.
    await condition(allHandlersFinished);
    return { outcome, userId: state.userId!, limits: state.limits };
  }

  function checkLinkRequest(request: unknown): void {
    const { userRef } = validate(checkOnboardingLinkRequest, request);
    if (userRef !== input.userRef) rejectInput('userRef', `this process onboards ${input.userRef}, not ${userRef}`);
    if (state.userId === null) rejectInput('userRef', 'the user is not created yet; ask again in a moment');
    if (state.stage === 'DONE' || state.stage === 'CONFIRMING_LIMITS') {
      rejectInput('userRef', `onboarding is over: the user is ${state.userStatus}`);
    }
  }

  /** Never cached: a link lives 30 minutes (docs/provider-contract.md §4.7), so every request fetches a new one. */
  async function handOutLink(): Promise<{ url: string }> {
    const link = await linkFetch.fetchOnboardingLink({ userId: state.userId! });
    state.linksHandedOut += 1;
    heard += 1;
    return { url: link.url };
  }
}
