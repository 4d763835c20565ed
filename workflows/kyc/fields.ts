import type { ApplicationFailure } from '@temporalio/workflow';
import type { AccountActivities } from '../../activities/accounts.js';
import { documentFieldIds } from '../../src/provider/documents.js';
import type { ClaimRef } from '../lib/messages.js';
import * as checks from './checks.js';
import type { DocumentSubmission, KycField, KycOutcome, KycStage, KycState, ValueSubmission } from './messages.js';
import { type Provide, reasonFor } from './reasons.js';
import { rejectInput, validate } from '../lib/process.js';
import { failureLabel, notSentFailure, ownFailureReason, refusalLabel, type SendFailure } from '../lib/refusal.js';

// The bookkeeping of a KYC round (docs/provider-contract.md §3.2), apart from the commands that carry it out: which
// fields await the end user, the stage, attempts, the checks an update must pass and how the round
// ends. Functions of the state the query shows and of the provider's last answer, with no effect
// on Temporal, so that tests exercise the rules without a server.

/** The account as the workflow reads it: statuses and notes, never a value. */
export type Profile = Awaited<ReturnType<AccountActivities['readProfile']>>;
export type DocumentFieldId = (typeof documentFieldIds)[number];

/** Input from the end user, queued until the workflow has sent it. */
export interface Submission {
  fieldId: string;
  /** The value or document in the claim store: deleted once this submission is handled. */
  claim: ClaimRef;
  /** Sends it to the provider (an activity) under the idempotency key given. */
  send: (idempotencyKey: string) => Promise<{ status: string }>;
  done: boolean;
  /** Why it was not sent, for the end user's update. */
  error: string | null;
  /** Why it was not sent, by whose failure (none when it was moot or the round ended first): the update's failure type. */
  failure?: SendFailure | null;
}

/** The submissions not sent yet: their fields await no more input meanwhile. */
export type Queue = ReadonlyArray<Pick<Submission, 'fieldId'>>;

const isQueued = (queue: Queue, fieldId: string) => queue.some((submission) => submission.fieldId === fieldId);

/** Only some DOCUMENT fields accept uploads (docs/provider-contract.md §OP-4). */
export function isDocumentFieldId(fieldId: string): fieldId is DocumentFieldId {
  return (documentFieldIds as readonly string[]).includes(fieldId);
}

/** Whether KYC takes input for the field: a PAYMENT_METHOD field (source of funds) moves with the ACH follow-up. */
export function takesInput(field: Pick<KycField, 'fieldId' | 'fieldType'>): boolean {
  return field.fieldType === 'STRING' || (field.fieldType === 'DOCUMENT' && isDocumentFieldId(field.fieldId));
}

export function attemptsUsedUp(state: Pick<KycState, 'maxAttemptsPerField'>, field: KycField): boolean {
  return field.attempts >= state.maxAttemptsPerField;
}

/** OPEN, of a kind KYC takes input for, attempts left: the end user is asked unless input is queued. */
function isOpenForInput(state: KycState, field: KycField): boolean {
  return field.status === 'OPEN' && takesInput(field) && !attemptsUsedUp(state, field);
}

type RoundInput = Pick<KycState, 'accountId' | 'maxAttemptsPerField'> & { priorSubmissions: Record<string, number> };

export function newKycState(input: RoundInput): KycState {
  return {
    accountId: input.accountId,
    stage: 'CHECKING',
    accountStatus: null,
    fields: [],
    maxAttemptsPerField: input.maxAttemptsPerField,
    reminders: 0,
    expired: false,
    outcome: null,
    submissions: { ...input.priorSubmissions },
  };
}

export function findField(state: KycState, fieldId: string): KycField | undefined {
  return state.fields.find((field) => field.fieldId === fieldId);
}

/** Takes the provider's view of the profile fields: status and note, and for an OPEN one, why. */
export function applyProfile(state: KycState, profile: Profile): void {
  state.accountStatus = profile.status;
  for (const seen of profile.fields) {
    let field = findField(state, seen.fieldId);
    if (!field) {
      const { fieldId, fieldType, status, note } = seen;
      const untouched = { reason: null, attempts: 0, awaiting: false, exhausted: false, error: null };
      field = { fieldId, fieldType, status, note, ...untouched };
      state.fields.push(field);
    }
    field.status = seen.status;
    field.note = seen.note;
    field.reason = seen.status === 'OPEN' ? reasonFor(field, seen.note) : null;
  }
}

export function awaitingFieldIds(state: KycState): string[] {
  return state.fields.filter((field) => field.awaiting).map((field) => field.fieldId);
}

/** The stage of a round still running. */
export function nextStage(
  current: KycStage,
  now: { submitting: boolean; waitingOnEndUser: boolean; fieldsKnown: boolean },
): KycStage {
  if (now.submitting) return 'SUBMITTING';
  if (now.waitingOnEndUser) return 'WAITING_FOR_END_USER';
  // Until the first read the round knows no field: it is still checking.
  if (current === 'CHECKING' && !now.fieldsKnown) return 'CHECKING';
  return 'UNDER_REVIEW';
}

/** What the UI's list shows: the stage, or the outcome once done. */
export interface Progress {
  status: KycStage | KycOutcome;
  waitingOnEndUser: boolean;
}

/**
 * Recomputes which fields await input (OPEN, taking input, attempts left, nothing queued for
 * them) and the stage; answers what the UI's list shows: the stage, or the outcome once done.
 */
export function updateProgress(state: KycState, queue: Queue, { submitting }: { submitting: boolean }): Progress {
  const done = state.stage === 'DONE';
  for (const field of state.fields) {
    field.awaiting = !done && isOpenForInput(state, field) && !isQueued(queue, field.fieldId);
  }
  const waitingOnEndUser = awaitingFieldIds(state).length > 0;
  const fieldsKnown = state.fields.length > 0;
  if (!done) state.stage = nextStage(state.stage, { submitting, waitingOnEndUser, fieldsKnown });
  return { status: done ? state.outcome! : state.stage, waitingOnEndUser };
}

/** Why an update handing in a `kind` for the field is refused now, or null: the field must await exactly that. */
export function inputRefusal(state: KycState, fieldId: string, kind: Provide, queue: Queue): string | null {
  if (state.stage === 'DONE') return `the process has ended (${state.outcome}); start a new round`;
  if (state.expired) return 'the deadline for resubmitting has passed; start a new round';
  const field = findField(state, fieldId);
  if (!field) return `account ${state.accountId} has no profile field ${fieldId}`;
  const { fieldType } = field;
  if (fieldType !== (kind === 'value' ? 'STRING' : 'DOCUMENT')) {
    const hint = fieldType === 'STRING' ? ': use submitValue' : fieldType === 'DOCUMENT' ? ': use submitDocument' : '';
    return `${fieldId} is a ${fieldType} field and takes no ${kind === 'value' ? 'typed value' : 'document'}${hint}`;
  }
  if (attemptsUsedUp(state, field)) {
    const times = `${field.attempts} time(s)`;
    return `${fieldId} was already submitted ${times}, the most this process allows; support must take over`;
  }
  if (isQueued(queue, fieldId)) return `a submission for ${fieldId} is being sent now`;
  if (!field.awaiting) return `${fieldId} is not awaiting input: it is ${field.status}`;
  if (kind === 'document' && !isDocumentFieldId(fieldId)) return `documents go to ${documentFieldIds.join(', ')}`;
  return null;
}

/** The submitValue update's validator: bad input, or input the round does not await now, is refused unchanged. */
export function checkValueSubmission(state: KycState, submission: unknown, queue: Queue): ValueSubmission {
  return awaited(state, validate(checks.checkValueSubmission, submission), 'value', queue);
}

/** The submitDocument update's validator, as checkValueSubmission. */
export function checkDocumentSubmission(state: KycState, submission: unknown, queue: Queue): DocumentSubmission {
  return awaited(state, validate(checks.checkDocumentSubmission, submission), 'document', queue);
}

function awaited<T extends { fieldId: string }>(state: KycState, submission: T, kind: Provide, queue: Queue): T {
  const refusal = inputRefusal(state, submission.fieldId, kind, queue);
  if (refusal !== null) rejectInput('fieldId', refusal);
  return submission;
}

/** What the upload activity takes from a document submission the validator admitted. */
export function documentUpload(submission: DocumentSubmission) {
  const { fieldId, document, documentType, documentSubType } = submission;
  // The validator refused every other field (inputRefusal): this is a guard for the type.
  if (!isDocumentFieldId(fieldId)) throw new TypeError(`${fieldId} takes no document`);
  const options = { ...(documentType ? { documentType } : {}), ...(documentSubType ? { documentSubType } : {}) };
  return { fieldId, document, ...options };
}

/** Counts a submission about to be sent; answers its number in this round, which its idempotency key carries. */
export function startAttempt(state: KycState, field: KycField): number {
  const attempt = (state.submissions[field.fieldId] ?? 0) + 1;
  state.submissions[field.fieldId] = attempt;
  field.attempts += 1;
  return attempt;
}

/** The provider took the submission: the field is under review (or already decided). */
export function recordSent(field: KycField, status: string): void {
  field.status = status === 'APPROVED' || status === 'OPEN' ? status : 'PENDING';
  field.note = null;
  field.reason = null;
  field.error = null;
}

/**
 * Records a submission that was not sent for good: refused by the provider, failed by our claim
 * store or our own check, or not delivered (its retries gave up). No attempt is used up; the
 * field shows why, by type and code only (never the provider's message: it may quote the input).
 */
export function recordNotSent(field: KycField, failure: SendFailure): string {
  field.attempts -= 1;
  field.error = failureLabel(failure);
  return field.error;
}

/** What the end user's update hears of a submission that was not sent. */
export function notSentReason(failure: SendFailure): string {
  if ('refused' in failure) return `the provider refused the submission: ${refusalLabel(failure.refused)}`;
  if ('notDelivered' in failure)
    return `it could not be delivered: ${failure.notDelivered}; nothing was used up: hand it in again later`;
  return ownFailureReason(failure);
}

/**
 * The failure of an update whose input was not sent, typed by whose it is (refusal.ts): the
 * provider's refusal, our claim store, not delivered; moot or the round ended first: input rejected.
 */
export function notSent(submission: Submission): ApplicationFailure {
  return notSentFailure(submission.fieldId, submission.error ?? 'not sent', submission.failure ?? null);
}

/** The provider is done with the account: approved (as a whole or field by field) or closed. */
export function isFinished(profile: Profile): boolean {
  if (profile.status === 'APPROVED' || profile.status === 'CLOSED') return true;
  return profile.fields.every((field) => field.status === 'APPROVED');
}

/** Fields sent back OPEN after their last allowed attempt. */
export function exhaustedFields(state: KycState, queue: Queue): KycField[] {
  const spent = (field: KycField) => field.status === 'OPEN' && takesInput(field) && attemptsUsedUp(state, field);
  return state.fields.filter((field) => spent(field) && !isQueued(queue, field.fieldId));
}

/**
 * The end user's time is up and a field still waits on them; also one that KYC takes no input for
 * (a source of funds waits on a payment method). Reviews under way at the deadline are awaited.
 */
export function isTimeUp(state: KycState): boolean {
  if (!state.expired) return false;
  const openWithoutInput = state.fields.some((field) => field.status === 'OPEN' && !takesInput(field));
  return awaitingFieldIds(state).length > 0 || openWithoutInput;
}

/** How the round ends after this look at the account, or null while it goes on. */
export function roundOutcome(state: KycState, profile: Profile, queue: Queue): KycOutcome | null {
  if (isFinished(profile)) return profile.status === 'CLOSED' ? 'CLOSED' : 'APPROVED';
  if (exhaustedFields(state, queue).length > 0) return 'ATTEMPTS_EXHAUSTED';
  if (isTimeUp(state)) return 'EXPIRED';
  return null;
}

/** Ends the round: the outcome, and which fields used up their attempts. */
export function endRound(state: KycState, outcome: KycOutcome, queue: Queue): void {
  if (outcome === 'ATTEMPTS_EXHAUSTED') for (const field of exhaustedFields(state, queue)) field.exhausted = true;
  state.stage = 'DONE';
  state.outcome = outcome;
}
