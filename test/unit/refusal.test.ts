import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ActivityFailure, ApplicationFailure, TimeoutFailure } from '@temporalio/common';
import { failureLabel, providerRefusal, refusalLabel, sendFailure } from '../../workflows/lib/refusal.js';

// How a process reads a failed activity (workflows/lib/refusal.ts): the provider's refusal as a
// typed value, told apart from a call whose retries gave up.

const failed = (cause: Error, retryState: 'NON_RETRYABLE_FAILURE' | 'MAXIMUM_ATTEMPTS_REACHED' | 'TIMEOUT') =>
  new ActivityFailure('activity failed', 'submitProfileValue', '7', retryState, undefined, cause);

// As activities/provider-failure.ts builds it from the provider's error body.
const validation = ApplicationFailure.create({
  type: 'ValidationException',
  message: 'submitProfileValue failed with 400 ValidationException',
  nonRetryable: true,
  details: [
    {
      call: 'submitProfileValue',
      status: 400,
      type: 'ValidationException',
      errorCode: 'ssn.format',
      subType: '',
      exceptionId: 'x',
      problematicField: 'value',
    },
  ],
});

describe('refusal: what a failed activity means to a process', () => {
  it('a non-retryable failure is the provider refusing: type, status, code and field at fault, by name', () => {
    const refusal = providerRefusal(failed(validation, 'NON_RETRYABLE_FAILURE'));
    assert.deepEqual(refusal, {
      type: 'ValidationException',
      message: 'submitProfileValue failed with 400 ValidationException',
      status: 400,
      errorCode: 'ssn.format',
      problematicField: 'value',
    });
    assert.equal(refusalLabel(refusal!), 'ValidationException (ssn.format)');
    assert.deepEqual(sendFailure(failed(validation, 'NON_RETRYABLE_FAILURE')), { refused: refusal });
  });

  it('a refusal of our own client (no provider body) has no status, code or field', () => {
    const input = ApplicationFailure.create({
      type: 'ProviderInputError',
      message: 'the header cannot be sent',
      nonRetryable: true,
    });
    const refusal = providerRefusal(failed(input, 'NON_RETRYABLE_FAILURE'));
    assert.deepEqual(
      {
        type: refusal?.type,
        status: refusal?.status,
        errorCode: refusal?.errorCode,
        problematicField: refusal?.problematicField,
      },
      { type: 'ProviderInputError', status: null, errorCode: null, problematicField: null },
    );
    assert.equal(refusalLabel(refusal!), 'ProviderInputError');
    assert.deepEqual(
      sendFailure(failed(input, 'NON_RETRYABLE_FAILURE')),
      { rejected: 'ProviderInputError' },
      'to a process that sends input, it is our own check, not the provider refusing',
    );
  });

  it("our own claim store's failures are never the provider's refusal: integrity, gone, key missing, by type", () => {
    // As activities/provider-failure.ts turns ClaimIntegrityError and ClaimGoneError into failures: non-retryable.
    for (const [type, reason] of [
      ['ClaimIntegrityError', 'integrity'],
      ['ClaimGoneError', 'gone'],
    ] as const) {
      const cause = ApplicationFailure.create({
        type,
        message: 'local:… is not in the claim store',
        nonRetryable: true,
      });
      assert.equal(providerRefusal(failed(cause, 'NON_RETRYABLE_FAILURE')), null, type);
      const failure = sendFailure(failed(cause, 'NON_RETRYABLE_FAILURE'));
      assert.deepEqual(failure, { claim: { reason, type } });
      assert.equal(failureLabel(failure!), `claim store: ${type}`);
    }
    // A key the worker lacks is retried (a redeploy may bring it); when the retries give up on it, it is still ours.
    const keyMissing = ApplicationFailure.create({ type: 'ClaimKeyMissingError', message: 'sealed with claim key …' });
    assert.deepEqual(sendFailure(failed(keyMissing, 'MAXIMUM_ATTEMPTS_REACHED')), {
      claim: { reason: 'key-missing', type: 'ClaimKeyMissingError' },
    });
  });

  it('retries that gave up, or an attempt timing out, are no refusal: the call was not delivered', () => {
    const outage = ApplicationFailure.create({
      type: 'S3Error',
      message: 'claim store answered 503',
      nonRetryable: false,
    });
    assert.equal(providerRefusal(failed(outage, 'MAXIMUM_ATTEMPTS_REACHED')), null);
    assert.deepEqual(sendFailure(failed(outage, 'MAXIMUM_ATTEMPTS_REACHED')), {
      notDelivered: 'the provider or the claim store did not answer before the retries gave up (last failure: S3Error)',
    });
    const timeout = new TimeoutFailure('activity timed out', undefined, 'START_TO_CLOSE');
    assert.deepEqual(sendFailure(failed(timeout, 'TIMEOUT')), {
      notDelivered:
        'the provider or the claim store did not answer before the retries gave up (last failure: TimeoutFailure)',
    });
  });

  it('an error that is no activity failure is neither: the workflow lets it fail the task', () => {
    assert.equal(providerRefusal(new Error('a bug')), null);
    assert.equal(sendFailure(new Error('a bug')), null);
    assert.equal(
      sendFailure(validation),
      null,
      'an ApplicationFailure thrown by the workflow itself is no activity failure',
    );
  });
});
