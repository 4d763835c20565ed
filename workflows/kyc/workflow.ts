import {
  allHandlersFinished,
  condition,
  proxyActivities,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { AccountActivities } from '../../activities/accounts.js';
import { AccountId } from '../../src/temporal/search-attributes.js';
import { PROVIDER_READ, PROVIDER_WRITE } from '../lib/activity-options.js';
import { doneWithClaims } from '../lib/claims.js';
import { startDeadline } from '../lib/deadline.js';
import { idempotencyKey } from '../lib/idempotency.js';
import * as round from './fields.js';
import { pollProvider, showStatus, validateStart } from '../lib/process.js';
import { type SendFailure, sendFailure } from '../lib/refusal.js';
import { type Reminders, remindWhileOwed, sendReminder } from '../lib/reminders.js';
import type { ClaimRef } from '../lib/messages.js';
import { checkKycInput } from './checks.js';
import { kycStateQuery, submitDocumentUpdate, submitValueUpdate } from './messages.js';
import type { DocumentSubmission, KycField, KycInput, KycOutcome, KycResult, ValueSubmission } from './messages.js';

// KYC resubmission (docs/provider-contract.md §3.2): reads the account, tells the end user why each
// OPEN profile field is open, takes a new value or document through an update, sends it and polls
// for the review (the provider sends no KYC callbacks); OPEN again asks again, up to
// maxAttemptsPerField. Values and documents travel as claim references only; one refused or not
// delivered uses up no attempt. The round's bookkeeping is kyc/fields.ts.
const provider = proxyActivities<AccountActivities>(PROVIDER_READ);
const submit = proxyActivities<AccountActivities>(PROVIDER_WRITE);

export async function kycWorkflow(raw: KycInput): Promise<KycResult> {
  const input = validateStart(checkKycInput, raw);
  const { accountId } = input;
  const { workflowId } = workflowInfo();
  const state = round.newKycState(input);
  const inbox: round.Submission[] = [];
  // Counts input from the end user: reminders measure quiet time against it.
  let inputsReceived = 0;
  let shownStatus = '';

  takeInputFromEndUser();
  upsertSearchAttributes([{ key: AccountId, value: accountId }]);
  showProgress();
  // The end user's time runs from the start (isTimeUp). Reviews under way at the deadline are awaited.
  startDeadline(input.timing.deadlineMs, () => {
    state.expired = true;
  });
  void remindWhileOwed(remindersOfOpenFields());

  // Reads the account until the round ends or input arrives; sends the input; and again.
  const pollUntil = pollProvider(input.timing);
  const ended = (profile: round.Profile) => round.roundOutcome(state, profile, inbox) !== null;
  const inputOrTimeUp = () => inbox.length > 0 || round.isTimeUp(state);
  for (;;) {
    const profile = await pollUntil({ read: readAccount, done: ended, wake: inputOrTimeUp });
    const outcome = round.roundOutcome(state, profile, inbox);
    if (outcome) return finish(outcome);
    await sendInbox();
  }

  /** The end user hands in values and documents through updates, checked before they are accepted. */
  function takeInputFromEndUser(): void {
    setHandler(kycStateQuery, () => state);
    setHandler(submitValueUpdate, receiveValue, {
      validator: (value) => round.checkValueSubmission(state, value, inbox),
    });
    setHandler(submitDocumentUpdate, receiveDocument, {
      validator: (document) => round.checkDocumentSubmission(state, document, inbox),
    });
  }

  /** While any field awaits input: field ids only in reminders, never values. */
  function remindersOfOpenFields(): Reminders {
    return {
      afterMs: input.timing.reminderAfterMs,
      owed: () => round.awaitingFieldIds(state).length > 0,
      over: () => state.stage === 'DONE',
      heard: () => inputsReceived,
      remind: () => sendReminder(state, { process: 'kyc', workflowId, waitingFor: round.awaitingFieldIds(state) }),
    };
  }

  async function readAccount(): Promise<round.Profile> {
    const profile = await provider.readProfile({ accountId });
    round.applyProfile(state, profile);
    showProgress();
    return profile;
  }

  /** Sends what the end user handed in, one at a time, each with a key of its own. */
  async function sendInbox(): Promise<void> {
    while (inbox.length > 0) {
      const submission = inbox[0]!;
      const field = round.findField(state, submission.fieldId)!;
      let failure: SendFailure | null = null;
      showProgress({ submitting: true });
      if (field.status !== 'OPEN') {
        // The provider moved on between the input and now: nothing to send.
        submission.error = `${submission.fieldId} is ${field.status} now; nothing was sent`;
      } else {
        // The run chain's first id keeps this round's keys apart from every other round's (the
        // provider remembers keys; Temporal forgets closed runs); the claim's digest keeps a value
        // apart from one refused or not delivered under the same attempt number.
        const attempt = round.startAttempt(state, field);
        const step = `${workflowInfo().firstExecutionRunId}/${field.fieldId}/${attempt}/${submission.claim.sha256}`;
        try {
          const sent = await submission.send(idempotencyKey(workflowId, step));
          round.recordSent(field, sent.status);
        } catch (err) {
          failure = sendFailure(err);
          if (failure === null) throw err;
          round.recordNotSent(field, failure);
        }
      }
      if (failure) {
        submission.error = round.notSentReason(failure);
        submission.failure = failure;
      }
      // Accepted, refused, not delivered or moot: the process needs the value no longer (input
      // handed in again is a new claim), and personal data is kept no longer than needed.
      await doneWithClaims([submission.claim]);
      submission.done = true;
      inbox.shift();
      showProgress();
    }
  }

  async function finish(outcome: KycOutcome): Promise<KycResult> {
    round.endRound(state, outcome, inbox);
    showProgress();
    // Let update handlers answer (they see DONE) before the run closes.
    await condition(allHandlersFinished);
    return { outcome, accountId, fields: state.fields, submissions: state.submissions };
  }

  function receiveValue({ fieldId, value }: ValueSubmission): Promise<KycField> {
    return receive(fieldId, value, (key) =>
      submit.submitProfileValue({ accountId, fieldId, value, idempotencyKey: key }),
    );
  }

  function receiveDocument(document: DocumentSubmission): Promise<KycField> {
    const upload = (key: string) =>
      submit.uploadProfileDocument({ accountId, ...round.documentUpload(document), idempotencyKey: key });
    return receive(document.fieldId, document.document, upload);
  }

  /** Queues a validated submission; answers once it reached the provider (or could not). */
  async function receive(fieldId: string, claim: ClaimRef, send: round.Submission['send']): Promise<KycField> {
    const submission: round.Submission = { fieldId, claim, send, done: false, error: null };
    inbox.push(submission);
    inputsReceived += 1;
    showProgress();
    await condition(() => submission.done || state.stage === 'DONE');
    if (!submission.done) submission.error = `the process ended (${state.outcome}) before this was sent`;
    if (submission.error) throw round.notSent(submission);
    return round.findField(state, fieldId)!;
  }

  /** Shows the stage (or outcome) in the UI's list; search attributes change only when it does. */
  function showProgress({ submitting }: { submitting: boolean } = { submitting: false }): void {
    const { status, waitingOnEndUser } = round.updateProgress(state, inbox, { submitting });
    if (`${status}/${waitingOnEndUser}` === shownStatus) return;
    shownStatus = `${status}/${waitingOnEndUser}`;
    showStatus(status, { waitingOnEndUser });
  }
}
