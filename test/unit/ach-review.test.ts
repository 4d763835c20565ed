import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  applyMethodState,
  asksForForm,
  type MethodState,
  newAchState,
  reviewDecision,
  reviewGoesOn,
} from '../../workflows/ach-followup/review.js';

// The ACH follow-up's decisions (docs/provider-contract.md §3.1), without a server: what the payment method's state asks
// of the end user, when the review is decided, and how the source of funds is reported.

const method = (
  status: MethodState['status'],
  waitingFor: string[] = [],
  sourceOfFunds: MethodState['sourceOfFunds'] = null,
): MethodState => ({
  status,
  waitingFor,
  rejectionMessage: null,
  sourceOfFunds,
});

describe('ACH review: what the payment method asks for', () => {
  it('the form is owed only in AWAITING_FOLLOWUP with the ACH_FORM prompt', () => {
    assert.equal(asksForForm(method('AWAITING_FOLLOWUP', ['ACH_FORM'])), true);
    assert.equal(asksForForm(method('AWAITING_FOLLOWUP', ['OTHER_PROMPT'])), false);
    assert.equal(asksForForm(method('PENDING', ['ACH_FORM'])), false);
  });

  it('the review goes on while PENDING or awaiting a follow-up other than the form; a form owed or a decision stops the wait', () => {
    const waits = (status: MethodState['status'], waitingFor: string[] = []) =>
      reviewGoesOn(method(status, waitingFor));
    assert.deepEqual(
      {
        pending: waits('PENDING'),
        formUnderReview: waits('AWAITING_FOLLOWUP'),
        formOwed: waits('AWAITING_FOLLOWUP', ['ACH_FORM']),
        approved: waits('APPROVED'),
        rejected: waits('REJECTED'),
      },
      { pending: true, formUnderReview: true, formOwed: false, approved: false, rejected: false },
    );
  });

  it('APPROVED, ACTIVE and REJECTED decide the review; any other status does not', () => {
    assert.deepEqual(
      (['APPROVED', 'ACTIVE', 'REJECTED', 'PENDING', 'AWAITING_FOLLOWUP'] as const).map((status) => ({
        status,
        decision: reviewDecision(status),
      })),
      [
        { status: 'APPROVED', decision: 'APPROVED' },
        { status: 'ACTIVE', decision: 'ACTIVE' },
        { status: 'REJECTED', decision: 'REJECTED' },
        { status: 'PENDING', decision: null },
        { status: 'AWAITING_FOLLOWUP', decision: null },
      ],
    );
  });
});

describe('ACH review: the source of funds', () => {
  it('its history grows only when status or note moved, and a method that is not the source shows none', () => {
    const state = newAchState('PM_1');
    applyMethodState(state, method('AWAITING_FOLLOWUP', ['ACH_FORM'], { status: 'OPEN', note: 'ach.formMissing' }));
    applyMethodState(state, method('AWAITING_FOLLOWUP', ['ACH_FORM'], { status: 'OPEN', note: 'ach.formMissing' }));
    applyMethodState(state, method('AWAITING_FOLLOWUP', [], { status: 'PENDING', note: null }));
    assert.deepEqual(state.sourceOfFundsHistory, [
      { status: 'OPEN', note: 'ach.formMissing' },
      { status: 'PENDING', note: null },
    ]);
    assert.equal(state.paymentMethodStatus, 'AWAITING_FOLLOWUP');
    applyMethodState(state, method('APPROVED'));
    assert.equal(state.sourceOfFunds, null);
    assert.equal(state.sourceOfFundsHistory.length, 2, 'no entry for a method that is not the source');
  });
});
