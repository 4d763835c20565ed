import { ActivityFailure, allHandlersFinished, ApplicationFailure, condition, proxyActivities, setHandler, sleep, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { AccountActivities } from '../activities/accounts.js';
import type { NotifyActivities } from '../activities/notify.js';
import { documentFieldIds } from '../src/provider/schemas/account.js';
import { AccountId } from '../src/temporal/search-attributes.js';
import { reasonFor } from './lib/kyc-reasons.js';
import { CREATION_RETRY } from './lib/retry.js';
import type { ClaimRef } from './messages/common.js';
import { doneWithClaims } from './lib/claims.js';
import { idempotencyKey } from './lib/idempotency.js';
import { poller, rejectInput, showStatus, validate } from './lib/process.js';
import {
  documentSubmission,
  kycInput,
  type KycField,
  type KycInput,
  type KycOutcome,
  type KycResult,
  type KycStage,
  type KycState,
  kycStateQuery,
  submitDocumentUpdate,
  submitValueUpdate,
  valueSubmission,
} from './messages/kyc.js';

// KYC resubmission (spec 3.2): reads the account, and for each OPEN profile field tells the end
// user why (the reviewer's note as a reason) and takes a new value or document through an update.
// The workflow sends it, then polls for the review, since the provider sends no KYC callbacks:
// APPROVED ends the field, OPEN again asks again, up to maxAttemptsPerField. The process ends
// APPROVED when no field is OPEN or PENDING, ATTEMPTS_EXHAUSTED, EXPIRED at the deadline, or
// CLOSED. Values and documents travel as claim references only.

// Reads and reminders retry without limit (harmless to repeat; waits are bounded by the stall
// limit); submissions are bounded (CREATION_RETRY): one that gives up is reported to the end
// user's update as not sent, and uses up no attempt.
const provider = proxyActivities<AccountActivities & NotifyActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1 minute' },
});
const submit = proxyActivities<AccountActivities>({ startToCloseTimeout: '1 minute', retry: CREATION_RETRY });

type DocumentFieldId = (typeof documentFieldIds)[number];
type Profile = Awaited<ReturnType<AccountActivities['readProfile']>>;

interface Submission {
  fieldId: string;
  /** The value or document in the claim store: deleted once this submission is handled. */
  claim: ClaimRef;
  send: (idempotencyKey: string) => Promise<{ status: string }>;
  done: boolean;
  error: string | null;
}

export async function kycWorkflow(raw: KycInput): Promise<KycResult> {
  // A start that bypasses the client and sends bad input fails the run cleanly, not its tasks forever.
  const input = validate(kycInput, raw);
  const { accountId, maxAttemptsPerField } = input;
  const { workflowId } = workflowInfo();
  const state: KycState = {
    accountId,
    stage: 'CHECKING',
    accountStatus: null,
    fields: [],
    maxAttemptsPerField,
    reminders: 0,
    expired: false,
    outcome: null,
    submissions: { ...input.priorSubmissions },
  };
  const inbox: Submission[] = [];
  // Counts input from the end user: reminders measure quiet time against it.
  let inputsReceived = 0;
  let shown = '';

  const field = (fieldId: string) => state.fields.find((f) => f.fieldId === fieldId);
  const queued = (fieldId: string) => inbox.some((s) => s.fieldId === fieldId);
  // PAYMENT_METHOD fields (source of funds) move with their own process (ACH follow-up).
  const takesInput = (f: KycField) => f.fieldType === 'STRING' || (f.fieldType === 'DOCUMENT' && (documentFieldIds as readonly string[]).includes(f.fieldId));
  const awaitingIds = () => state.fields.filter((f) => f.awaiting).map((f) => f.fieldId);
  const usedUp = (f: KycField) => f.attempts >= maxAttemptsPerField;

  /** Recomputes what is awaited and the stage; search attributes change only when these do. */
  const refresh = (submitting = false) => {
    const done = state.stage === 'DONE';
    for (const f of state.fields) f.awaiting = !done && f.status === 'OPEN' && takesInput(f) && !usedUp(f) && !queued(f.fieldId);
    const waiting = awaitingIds().length > 0;
    if (!done) state.stage = submitting ? 'SUBMITTING' : waiting ? 'WAITING_FOR_END_USER' : state.stage === 'CHECKING' && state.fields.length === 0 ? 'CHECKING' : 'UNDER_REVIEW';
    const status: KycStage | KycOutcome = done ? state.outcome! : state.stage;
    if (`${status}/${waiting}` !== shown) {
      shown = `${status}/${waiting}`;
      showStatus(status, waiting);
    }
  };

  /** Takes the provider's view of the profile fields: status and note, never the value. */
  const apply = (p: Profile) => {
    state.accountStatus = p.status;
    for (const pf of p.fields) {
      let f = field(pf.fieldId);
      if (!f) {
        f = { fieldId: pf.fieldId, fieldType: pf.fieldType, status: pf.status, note: pf.note, reason: null, attempts: 0, awaiting: false, exhausted: false, error: null };
        state.fields.push(f);
      }
      f.status = pf.status;
      f.note = pf.note;
      f.reason = pf.status === 'OPEN' ? reasonFor(f, pf.note) : null;
    }
    refresh();
  };

  const read = async () => {
    const p = await provider.readProfile({ accountId });
    apply(p);
    return p;
  };

  /** Shared checks of both updates: the field must await exactly this kind of input now. */
  const accept = (fieldId: string, kind: 'value' | 'document') => {
    if (state.stage === 'DONE') rejectInput('fieldId', `the process has ended (${state.outcome}); start a new round`);
    if (state.expired) rejectInput('fieldId', 'the deadline for resubmitting has passed; start a new round');
    const f = field(fieldId);
    if (!f) rejectInput('fieldId', `account ${accountId} has no profile field ${fieldId}`);
    if (kind === 'value' && f.fieldType !== 'STRING') rejectInput('fieldId', `${fieldId} is a ${f.fieldType} field and takes no typed value${f.fieldType === 'DOCUMENT' ? ': use submitDocument' : ''}`);
    if (kind === 'document' && f.fieldType !== 'DOCUMENT') rejectInput('fieldId', `${fieldId} is a ${f.fieldType} field and takes no document${f.fieldType === 'STRING' ? ': use submitValue' : ''}`);
    if (usedUp(f)) rejectInput('fieldId', `${fieldId} was already submitted ${f.attempts} time(s), the most this process allows; support must take over`);
    if (queued(fieldId)) rejectInput('fieldId', `a submission for ${fieldId} is being sent now`);
    if (!f.awaiting) rejectInput('fieldId', `${fieldId} is not awaiting input: it is ${f.status}`);
  };

  /** Queues a validated submission; answers once it reached the provider (or could not). */
  const receive = async (fieldId: string, claim: ClaimRef, send: Submission['send']): Promise<KycField> => {
    const sub: Submission = { fieldId, claim, send, done: false, error: null };
    inbox.push(sub);
    inputsReceived += 1;
    refresh();
    await condition(() => sub.done || state.stage === 'DONE');
    if (!sub.done) sub.error = `the process ended (${state.outcome}) before this was sent`;
    if (sub.error) throw ApplicationFailure.create({ type: 'SubmissionFailed', message: `${fieldId}: ${sub.error}`, nonRetryable: true });
    return field(fieldId)!;
  };

  setHandler(kycStateQuery, () => state);
  setHandler(
    submitValueUpdate,
    (v) => receive(v.fieldId, v.value, (idempotencyKey) => submit.submitProfileValue({ accountId, fieldId: v.fieldId, value: v.value, idempotencyKey })),
    {
      validator: (v) => {
        const s = validate(valueSubmission, v);
        accept(s.fieldId, 'value');
      },
    },
  );
  setHandler(
    submitDocumentUpdate,
    (d) =>
      receive(d.fieldId, d.document, (idempotencyKey) =>
        submit.uploadProfileDocument({
          accountId,
          fieldId: d.fieldId as DocumentFieldId,
          document: d.document,
          ...(d.documentType ? { documentType: d.documentType } : {}),
          ...(d.documentSubType ? { documentSubType: d.documentSubType } : {}),
          idempotencyKey,
        }),
      ),
    {
      validator: (d) => {
        const s = validate(documentSubmission, d);
        accept(s.fieldId, 'document');
        // Only some DOCUMENT fields accept uploads (open-points "Upload a document").
        if (!(documentFieldIds as readonly string[]).includes(s.fieldId)) rejectInput('fieldId', `documents go to ${documentFieldIds.join(', ')}`);
      },
    },
  );

  /** Sends what the end user handed in, one at a time, each with a key of its own. */
  const sendInbox = async () => {
    while (inbox.length > 0) {
      const sub = inbox[0]!;
      const f = field(sub.fieldId)!;
      refresh(true);
      if (f.status !== 'OPEN') {
        // The provider moved on between the input and now: nothing to send.
        sub.error = `${sub.fieldId} is ${f.status} now; nothing was sent`;
      } else {
        const attempt = (state.submissions[f.fieldId] ?? 0) + 1;
        state.submissions[f.fieldId] = attempt;
        f.attempts += 1;
        try {
          // The run chain's first id makes the key of this round's n-th submission of a field
          // one that no other round has used, however long ago that round ran (the provider
          // remembers keys; Temporal forgets closed runs after retention). Only the activity's
          // input changes with this key, not a command: no patch; a submission scheduled before
          // the change keeps its recorded key on retry.
          const r = await sub.send(idempotencyKey(workflowId, `${workflowInfo().firstExecutionRunId}/${f.fieldId}/${attempt}`));
          f.status = r.status === 'APPROVED' || r.status === 'OPEN' ? r.status : 'PENDING';
          f.note = null;
          f.reason = null;
          f.error = null;
        } catch (err) {
          // A refusal by the provider (not a transient failure: those are retried) does not use
          // up an attempt; only the error type is kept, since a message may quote the input.
          if (!(err instanceof ActivityFailure)) throw err;
          f.attempts -= 1;
          const cause = err.cause instanceof ApplicationFailure ? err.cause : undefined;
          const code = (cause?.details?.[0] as { errorCode?: string } | undefined)?.errorCode;
          f.error = `${cause?.type ?? 'ActivityFailure'}${code ? ` (${code})` : ''}`;
          sub.error = `the provider refused the submission: ${f.error}`;
        }
      }
      // Accepted, refused or moot: the process needs the value no longer (new input is a new claim).
      await doneWithClaims([sub.claim]);
      sub.done = true;
      inbox.shift();
      refresh();
    }
  };

  const finish = async (outcome: KycOutcome): Promise<KycResult> => {
    state.stage = 'DONE';
    state.outcome = outcome;
    refresh();
    // Let update handlers answer (they see DONE) before the run closes.
    await condition(allHandlersFinished);
    return { outcome, accountId, fields: state.fields, submissions: state.submissions };
  };

  /** Reminds the end user after a quiet time while any field awaits them: ids only, never values. */
  const remind = async () => {
    const over = () => state.stage === 'DONE';
    for (;;) {
      await condition(() => awaitingIds().length > 0 || over());
      if (over()) return;
      const heard = inputsReceived;
      const stirred = await condition(() => inputsReceived !== heard || awaitingIds().length === 0 || over(), input.timing.reminderAfterMs);
      if (over()) return;
      if (!stirred) {
        state.reminders += 1;
        await provider.sendReminder({ process: 'kyc', workflowId, waitingFor: awaitingIds(), count: state.reminders });
      }
    }
  };

  upsertSearchAttributes([{ key: AccountId, value: accountId }]);
  refresh();
  // The end user's time runs from the start. Reviews under way at the deadline are still awaited.
  void sleep(input.timing.deadlineMs).then(() => {
    state.expired = true;
  });
  void remind();

  const pollUntil = poller(input.timing);
  const finished = (p: Profile) => p.status === 'APPROVED' || p.status === 'CLOSED' || p.fields.every((f) => f.status === 'APPROVED');
  const exhausted = () => state.fields.filter((f) => f.status === 'OPEN' && takesInput(f) && usedUp(f) && !queued(f.fieldId));
  // At the deadline, a field still OPEN ends the process, also one that KYC takes no input for
  // (a source of funds waits on a payment method: the ACH follow-up's business).
  const timeUp = () => state.expired && (awaitingIds().length > 0 || state.fields.some((f) => f.status === 'OPEN' && !takesInput(f)));

  for (;;) {
    const p = await pollUntil(read, (v) => finished(v) || exhausted().length > 0 || timeUp(), () => inbox.length > 0 || timeUp());
    if (finished(p)) return finish(p.status === 'CLOSED' ? 'CLOSED' : 'APPROVED');
    const spent = exhausted();
    if (spent.length > 0) {
      for (const f of spent) f.exhausted = true;
      return finish('ATTEMPTS_EXHAUSTED');
    }
    if (timeUp()) return finish('EXPIRED');
    await sendInbox();
  }
}
