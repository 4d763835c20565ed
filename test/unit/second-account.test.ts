import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isSecondAccountCreation } from '../../workflows/lib/second-account.js';

// Spec 7.1 and open-points "Errors": provisioning knows a second account creation by the documented
// status and type of the failure, never by a provider errorCode.
describe('provisioning: what counts as the second account creation of spec 7.1', () => {
  it('400 ValidationException naming no field is the bound token, whatever the errorCode', () => {
    assert.equal(isSecondAccountCreation({ status: 400, type: 'ValidationException', problematicField: '' }), true);
    assert.equal(isSecondAccountCreation({ status: 400, type: 'ValidationException' }), true);
    assert.equal(isSecondAccountCreation({ status: 400, type: 'ValidationException', problematicField: '', errorCode: 'anything.else' } as never), true);
  });

  it('a field at fault, another type or status, or no details is a real failure', () => {
    assert.equal(isSecondAccountCreation({ status: 400, type: 'ValidationException', problematicField: 'country' }), false);
    assert.equal(isSecondAccountCreation({ status: 401, type: 'AccessDeniedException', problematicField: '' }), false);
    assert.equal(isSecondAccountCreation({ status: 500, type: 'UnknownException' }), false);
    assert.equal(isSecondAccountCreation({ status: 400, type: 'TransferException' }), false);
    assert.equal(isSecondAccountCreation(undefined), false);
  });
});
