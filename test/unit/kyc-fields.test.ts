import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApplicationFailure } from '@temporalio/common';
import {
  applyProfile,
  checkDocumentSubmission,
  checkValueSubmission,
  documentUpload,
  endRound,
  findField,
  inputRefusal,
  isTimeUp,
  newKycState,
  nextStage,
  notSent,
  notSentReason,
  type Profile,
  type Queue,
  recordNotSent,
  recordSent,
  roundOutcome,
  startAttempt,
  updateProgress,
} from '../../workflows/kyc/fields.js';
import { CLAIM_STORE_FAILED, INPUT_REJECTED, NOT_DELIVERED, PROVIDER_REFUSED } from '../../workflows/lib/messages.js';
import type { KycField, KycState } from '../../workflows/kyc/messages.js';
import { assertFields } from '../helpers/assert.js';

// The bookkeeping of a KYC round, without a server: what the end user is asked for, the stage,
// attempts, the checks on input and the outcome. The workflow's commands around it are held by
// the recorded histories (test/integration/replay.test.ts) and the integration tests.

type FieldView = Profile['fields'][number];
const ssn = (status: FieldView['status'], note: string | null = null): FieldView => ({
  fieldId: 'individualSsn',
  fieldType: 'STRING',
  status,
  note,
});
const governmentId = (status: FieldView['status']): FieldView => ({
  fieldId: 'individualGovernmentId',
  fieldType: 'DOCUMENT',
  status,
  note: null,
});
const sourceOfFunds = (status: FieldView['status']): FieldView => ({
  fieldId: 'individualSourceOfFunds',
  fieldType: 'PAYMENT_METHOD',
  status,
  note: null,
});
const profile = (fields: FieldView[], status: Profile['status'] = 'PENDING'): Profile => ({
  accountId: 'AC_1',
  status,
  fields,
});
const nothingQueued: Queue = [];

/** A round that has read the account once. */
function roundAfterRead(fields: FieldView[], maxAttemptsPerField = 2): KycState {
  const state = newKycState({ accountId: 'AC_1', maxAttemptsPerField, priorSubmissions: {} });
  applyProfile(state, profile(fields));
  updateProgress(state, nothingQueued, { submitting: false });
  return state;
}
const field = (state: KycState, fieldId: string): KycField => findField(state, fieldId)!;
const valueRef = { ref: 'local:abc', size: 11, contentType: 'text/plain', sha256: '0'.repeat(64), keyed: true };
const documentRef = { ref: 'local:def', size: 8, contentType: 'image/png' as const, sha256: '1'.repeat(64) };

describe('KYC fields: what the end user is asked for', () => {
  it("takes the provider's fields with the reason of each OPEN one; a later read updates them in place", () => {
    const state = roundAfterRead([ssn('OPEN', 'A valid social security number is required'), governmentId('APPROVED')]);
    assert.equal(state.accountStatus, 'PENDING');
    assert.deepEqual(field(state, 'individualSsn').reason?.code, 'ssn.invalid');
    assert.equal(field(state, 'individualGovernmentId').reason, null);

    applyProfile(state, profile([ssn('PENDING')]));
    assert.equal(state.fields.length, 2);
    assert.equal(field(state, 'individualSsn').status, 'PENDING');
    assert.equal(field(state, 'individualSsn').reason, null);
  });

  it("awaits OPEN values and uploadable documents, never a payment method's field", () => {
    const state = roundAfterRead([ssn('OPEN'), governmentId('OPEN'), sourceOfFunds('OPEN')]);
    assertFields(state.fields, [
      { fieldId: 'individualSsn', awaiting: true },
      { fieldId: 'individualGovernmentId', awaiting: true },
      { fieldId: 'individualSourceOfFunds', awaiting: false },
    ]);
  });

  it('awaits no field whose input is queued or whose attempts are used up', () => {
    const state = roundAfterRead([ssn('OPEN'), governmentId('OPEN')], 1);
    field(state, 'individualGovernmentId').attempts = 1;
    const progress = updateProgress(state, [{ fieldId: 'individualSsn' }], { submitting: false });
    assert.deepEqual(progress, { status: 'UNDER_REVIEW', waitingOnEndUser: false });
    assert.ok(state.fields.every((f) => !f.awaiting));
  });
});

describe('KYC fields: the stage', () => {
  it('is CHECKING until the account is read, then follows what the round waits on', () => {
    const state = newKycState({ accountId: 'AC_1', maxAttemptsPerField: 5, priorSubmissions: { individualSsn: 2 } });
    assert.deepEqual(updateProgress(state, nothingQueued, { submitting: false }), {
      status: 'CHECKING',
      waitingOnEndUser: false,
    });
    assert.deepEqual(state.submissions, { individualSsn: 2 }, "earlier rounds' submissions carried");

    applyProfile(state, profile([ssn('OPEN')]));
    assert.deepEqual(updateProgress(state, nothingQueued, { submitting: false }), {
      status: 'WAITING_FOR_END_USER',
      waitingOnEndUser: true,
    });
    assert.deepEqual(updateProgress(state, [{ fieldId: 'individualSsn' }], { submitting: true }), {
      status: 'SUBMITTING',
      waitingOnEndUser: false,
    });
    applyProfile(state, profile([ssn('PENDING')]));
    assert.deepEqual(updateProgress(state, nothingQueued, { submitting: false }), {
      status: 'UNDER_REVIEW',
      waitingOnEndUser: false,
    });
  });

  it('nextStage: submitting first, then the end user, then the review', () => {
    const now = { submitting: false, waitingOnEndUser: false, fieldsKnown: true };
    assert.equal(nextStage('WAITING_FOR_END_USER', { ...now, submitting: true, waitingOnEndUser: true }), 'SUBMITTING');
    assert.equal(nextStage('UNDER_REVIEW', { ...now, waitingOnEndUser: true }), 'WAITING_FOR_END_USER');
    assert.equal(nextStage('CHECKING', { ...now, fieldsKnown: false }), 'CHECKING');
    assert.equal(nextStage('CHECKING', now), 'UNDER_REVIEW');
    assert.equal(nextStage('SUBMITTING', { ...now, fieldsKnown: false }), 'UNDER_REVIEW', 'only the start is CHECKING');
  });

  it('once the round is done, shows the outcome and awaits nothing', () => {
    const state = roundAfterRead([ssn('OPEN')]);
    endRound(state, 'EXPIRED', nothingQueued);
    assert.deepEqual(updateProgress(state, nothingQueued, { submitting: false }), {
      status: 'EXPIRED',
      waitingOnEndUser: false,
    });
    assert.equal(field(state, 'individualSsn').awaiting, false);
  });
});

describe('KYC fields: the checks an update must pass', () => {
  it('refuses, in this order, what the round does not await now', () => {
    const state = roundAfterRead(
      [
        ssn('OPEN'),
        governmentId('OPEN'),
        { fieldId: 'individualLegalName', fieldType: 'STRING', status: 'PENDING', note: null },
      ],
      1,
    );
    const refusal = (fieldId: string, kind: 'value' | 'document', queue = nothingQueued) =>
      inputRefusal(state, fieldId, kind, queue);
    assert.equal(refusal('individualSsn', 'value'), null);
    assert.equal(refusal('individualGovernmentId', 'document'), null);
    assert.equal(refusal('individualShoeSize', 'value'), 'account AC_1 has no profile field individualShoeSize');
    assert.equal(
      refusal('individualGovernmentId', 'value'),
      'individualGovernmentId is a DOCUMENT field and takes no typed value: use submitDocument',
    );
    assert.equal(
      refusal('individualSsn', 'document'),
      'individualSsn is a STRING field and takes no document: use submitValue',
    );
    assert.equal(
      refusal('individualSsn', 'value', [{ fieldId: 'individualSsn' }]),
      'a submission for individualSsn is being sent now',
    );
    assert.equal(refusal('individualLegalName', 'value'), 'individualLegalName is not awaiting input: it is PENDING');
    field(state, 'individualSsn').attempts = 1;
    assert.match(refusal('individualSsn', 'value')!, /already submitted 1 time\(s\), the most this process allows/);
    state.expired = true;
    assert.match(refusal('individualGovernmentId', 'document')!, /deadline for resubmitting has passed/);
    endRound(state, 'EXPIRED', nothingQueued);
    assert.match(refusal('individualGovernmentId', 'document')!, /the process has ended \(EXPIRED\)/);
  });

  it('the validators refuse bad input and input not awaited as InputRejected naming the field', () => {
    const state = roundAfterRead([ssn('OPEN'), governmentId('OPEN')]);
    const rejected =
      (pattern: RegExp, field = 'fieldId') =>
      (err: unknown) => {
        assert.ok(err instanceof ApplicationFailure && err.type === INPUT_REJECTED, String(err));
        assert.deepEqual(err.details, [{ field }]);
        assert.match(err.message, pattern);
        return true;
      };
    assert.equal(
      checkValueSubmission(state, { fieldId: 'individualSsn', value: valueRef }, nothingQueued).fieldId,
      'individualSsn',
    );
    assert.throws(
      () => checkValueSubmission(state, { fieldId: 'individualGovernmentId', value: valueRef }, nothingQueued),
      rejected(/use submitDocument/),
    );
    assert.throws(
      () =>
        checkValueSubmission(state, { fieldId: 'individualSsn', value: { ...valueRef, keyed: false } }, nothingQueued),
      rejected(/keyed digest/, 'value.keyed'),
    );
    assert.equal(
      checkDocumentSubmission(state, { fieldId: 'individualGovernmentId', document: documentRef }, nothingQueued)
        .fieldId,
      'individualGovernmentId',
    );
    assert.throws(
      () => checkDocumentSubmission(state, { fieldId: 'Bad Field', document: documentRef }, nothingQueued),
      rejected(/fieldId must be a profile field id/),
    );
  });

  it('an upload carries the document options given, and only to a field that takes documents', () => {
    const upload = documentUpload({
      fieldId: 'individualGovernmentId',
      document: documentRef,
      documentSubType: 'FRONT',
    });
    assert.deepEqual(upload, { fieldId: 'individualGovernmentId', document: documentRef, documentSubType: 'FRONT' });
    assert.throws(() => documentUpload({ fieldId: 'individualSsn', document: documentRef }), TypeError);
  });
});

describe('KYC fields: attempts', () => {
  it("a submission sent counts an attempt and numbers its key after earlier rounds' submissions", () => {
    const state = roundAfterRead([ssn('OPEN', 'A valid social security number is required')]);
    state.submissions.individualSsn = 3;
    const ssnField = field(state, 'individualSsn');
    assert.equal(startAttempt(state, ssnField), 4);
    recordSent(ssnField, 'SOMETHING_NEW');
    assertFields(ssnField, { attempts: 1, status: 'PENDING', note: null, reason: null });
    assert.equal(state.submissions.individualSsn, 4, "counted after the earlier rounds' submissions");
    recordSent(ssnField, 'APPROVED');
    assert.equal(ssnField.status, 'APPROVED');
  });

  it('a refusal by the provider gives the attempt back and keeps the error type and code, never the message', () => {
    const state = roundAfterRead([ssn('OPEN')]);
    const ssnField = field(state, 'individualSsn');
    startAttempt(state, ssnField);
    const refused = {
      refused: {
        type: 'ValidationException',
        message: 'value 123-45-6789 refused',
        status: 400,
        errorCode: 'ssn.format',
        problematicField: null,
      },
    };
    assert.equal(recordNotSent(ssnField, refused), 'ValidationException (ssn.format)');
    assert.deepEqual(
      { attempts: ssnField.attempts, error: ssnField.error },
      { attempts: 0, error: 'ValidationException (ssn.format)' },
    );
    assert.equal(notSentReason(refused), 'the provider refused the submission: ValidationException (ssn.format)');
  });

  it('a submission not delivered gives the attempt back too, and tells the end user to hand it in again', () => {
    const state = roundAfterRead([ssn('OPEN')]);
    const ssnField = field(state, 'individualSsn');
    startAttempt(state, ssnField);
    const notDelivered = {
      notDelivered: 'the provider or the claim store did not answer before the retries gave up (last failure: S3Error)',
    };
    recordNotSent(ssnField, notDelivered);
    assert.deepEqual(
      { attempts: ssnField.attempts, error: ssnField.error },
      { attempts: 0, error: notDelivered.notDelivered },
    );
    assert.equal(
      notSentReason(notDelivered),
      'it could not be delivered: the provider or the claim store did not answer before the retries gave up (last failure: S3Error); nothing was used up: hand it in again later',
    );
  });

  it("an update whose input was not sent fails by whose failure it was: the provider's, our claim store's, not delivered, or the input's", () => {
    const submission = {
      fieldId: 'individualSsn',
      claim: valueRef,
      send: async () => ({ status: 'PENDING' }),
      done: true,
    };
    const refusal = {
      type: 'ValidationException',
      message: 'failed with 400',
      status: 400,
      errorCode: 'ssn.format',
      problematicField: 'value',
    };
    const refused = notSent({
      ...submission,
      error: 'the provider refused the submission: ValidationException (ssn.format)',
      failure: { refused: refusal },
    });
    assertFields(refused, {
      type: PROVIDER_REFUSED,
      nonRetryable: true,
      message: 'individualSsn: the provider refused the submission: ValidationException (ssn.format)',
    });
    assert.deepEqual(refused.details, [
      { field: 'individualSsn', type: 'ValidationException', errorCode: 'ssn.format', status: 400 },
    ]);
    const gone = { claim: { reason: 'gone' as const, type: 'ClaimGoneError' } };
    const ours = notSent({ ...submission, error: notSentReason(gone), failure: gone });
    assertFields(ours, { type: CLAIM_STORE_FAILED, nonRetryable: true });
    assert.match(ours.message, /^individualSsn: our claim store could not give it back \(ClaimGoneError\)/);
    assert.doesNotMatch(ours.message, /provider refused/);
    assert.deepEqual(ours.details, [{ field: 'individualSsn', reason: 'gone', type: 'ClaimGoneError' }]);
    const lost = notSent({
      ...submission,
      error: 'it could not be delivered: …',
      failure: { notDelivered: 'the provider or the claim store did not answer' },
    });
    assertFields(lost, {
      type: NOT_DELIVERED,
      nonRetryable: true,
      message: 'individualSsn: it could not be delivered: …',
    });
    assert.deepEqual(lost.details, [{ field: 'individualSsn' }], 'the client names the field');
    const moot = notSent({ ...submission, error: 'individualSsn is APPROVED now; nothing was sent' });
    assertFields(moot, { type: INPUT_REJECTED, nonRetryable: true });
  });

  it("the field shows whose failure it was, by type only: our claim store's is not the provider's", () => {
    const state = roundAfterRead([ssn('OPEN')]);
    const ssnField = field(state, 'individualSsn');
    startAttempt(state, ssnField);
    recordNotSent(ssnField, { claim: { reason: 'integrity', type: 'ClaimIntegrityError' } });
    assert.deepEqual(
      { attempts: ssnField.attempts, error: ssnField.error },
      { attempts: 0, error: 'claim store: ClaimIntegrityError' },
    );
  });
});

describe('KYC fields: how the round ends', () => {
  it('APPROVED when the account or every field is approved, CLOSED when the account is', () => {
    const state = roundAfterRead([ssn('PENDING')]);
    assert.equal(roundOutcome(state, profile([ssn('PENDING')], 'APPROVED'), nothingQueued), 'APPROVED');
    assert.equal(roundOutcome(state, profile([ssn('APPROVED'), governmentId('APPROVED')]), nothingQueued), 'APPROVED');
    assert.equal(roundOutcome(state, profile([ssn('OPEN')], 'CLOSED'), nothingQueued), 'CLOSED');
    assert.equal(roundOutcome(state, profile([ssn('PENDING')]), nothingQueued), null, 'under review: it goes on');
  });

  it('ATTEMPTS_EXHAUSTED when a field comes back OPEN after its last attempt, unless input for it is queued', () => {
    const fields = [ssn('OPEN'), governmentId('PENDING')];
    const state = roundAfterRead(fields, 1);
    field(state, 'individualSsn').attempts = 1;
    assert.equal(roundOutcome(state, profile(fields), [{ fieldId: 'individualSsn' }]), null);
    assert.equal(roundOutcome(state, profile(fields), nothingQueued), 'ATTEMPTS_EXHAUSTED');
    endRound(state, 'ATTEMPTS_EXHAUSTED', nothingQueued);
    assertFields(state, {
      fields: [
        { fieldId: 'individualSsn', exhausted: true },
        { fieldId: 'individualGovernmentId', exhausted: false },
      ],
      stage: 'DONE',
      outcome: 'ATTEMPTS_EXHAUSTED',
    });
  });

  it('EXPIRED past the deadline while a field waits on the end user or on a payment method; reviews under way are awaited', () => {
    const waiting = roundAfterRead([ssn('OPEN')]);
    assert.equal(isTimeUp(waiting), false, 'not before the deadline');
    waiting.expired = true;
    assert.equal(roundOutcome(waiting, profile([ssn('OPEN')]), nothingQueued), 'EXPIRED');

    const onPaymentMethod = roundAfterRead([sourceOfFunds('OPEN'), ssn('PENDING')]);
    onPaymentMethod.expired = true;
    assert.equal(isTimeUp(onPaymentMethod), true);

    const underReview = roundAfterRead([ssn('PENDING')]);
    underReview.expired = true;
    assert.equal(roundOutcome(underReview, profile([ssn('PENDING')]), nothingQueued), null);
  });
});
