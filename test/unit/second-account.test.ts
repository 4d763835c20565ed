import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isSecondAccountCreation } from '../../workflows/provisioning/second-account.js';
import type { Refusal } from '../../workflows/lib/refusal.js';

const refusal = (fields: Partial<Refusal>): Refusal => ({
  type: 'ValidationException',
  message: 'createAccount failed with 400 ValidationException',
  status: 400,
  errorCode: null,
  problematicField: null,
  ...fields,
});

// docs/provider-contract.md §7.1 and §OP-1: provisioning knows a second account creation by the documented
// status and type of the refusal, never by a provider errorCode.
describe('provisioning: what counts as the second account creation of docs/provider-contract.md §7.1', () => {
  it('400 ValidationException naming no field is the bound token, whatever the errorCode', () => {
    assert.equal(isSecondAccountCreation(refusal({})), true);
    assert.equal(isSecondAccountCreation(refusal({ errorCode: 'anything.else' })), true);
  });

  it('a field at fault, another type or status is a real failure', () => {
    assert.equal(isSecondAccountCreation(refusal({ problematicField: 'country' })), false);
    assert.equal(isSecondAccountCreation(refusal({ status: 401, type: 'AccessDeniedException' })), false);
    assert.equal(isSecondAccountCreation(refusal({ status: 500, type: 'UnknownException' })), false);
    assert.equal(isSecondAccountCreation(refusal({ type: 'TransferException' })), false);
    assert.equal(
      isSecondAccountCreation(refusal({ status: null })),
      false,
      'a refusal of our own client, before sending',
    );
  });
});
