import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { createLogger } from '../../src/telemetry/logger.js';
import { REDACTED, scrub } from '../../src/telemetry/redact.js';

// The provider's own names for personal data (a wallet's verificationData, a reservation's buyer,
// the limits address, the KYC profile field ids) are redacted as the generic names are.

const verificationData = {
  firstName: 'Jane',
  phoneNumber: '+15550100',
  birthDay: '04',
  birthMonth: '07',
  birthYear: '1980',
  address: { street1: '4 Elm St', street2: 'Flat 4', city: 'Springfield', state: 'IL', postalCode: '62701' },
};
const reservation = { sourceAmount: '10', phone: '+15550100', street1: '4 Elm St', city: 'Springfield', zip: '62701' };
const profileFields = [
  'individualSourceOfFunds',
  'individualGovernmentId',
  'individualProofOfAddress',
  'individualAchAuthorizationForm',
  'individualSomethingNew',
].map((fieldId) => ({ fieldId, value: `value of ${fieldId}`, status: 'OPEN' }));

describe('redaction knows the provider contract’s personal-data fields', () => {
  it('scrub redacts phone, street, city, postal code and birth date parts; leaves state and amounts', () => {
    const out = scrub({ verificationData, reservation }) as {
      verificationData: Record<string, unknown> & { address: Record<string, unknown> };
      reservation: Record<string, unknown>;
    };
    for (const key of ['firstName', 'phoneNumber', 'birthDay', 'birthMonth', 'birthYear'])
      assert.equal(out.verificationData[key], REDACTED, key);
    for (const key of ['street1', 'street2', 'city', 'postalCode'])
      assert.equal(out.verificationData.address[key], REDACTED, key);
    assert.equal(out.verificationData.address.state, 'IL', 'a state names no one (and state is a common log field)');
    for (const key of ['phone', 'street1', 'city', 'zip']) assert.equal(out.reservation[key], REDACTED, key);
    assert.equal(out.reservation.sourceAmount, '10');
  });

  it('the value of every individual* profile field is redacted, in a log line too; its id and status stay', () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    createLogger({ service: 'worker', destination }).info({ account: { profileFields } }, 'account read');
    const line = JSON.parse(lines.join('')) as { account: { profileFields: typeof profileFields } };
    for (const field of line.account.profileFields) {
      assert.equal(field.value, REDACTED, field.fieldId);
      assert.equal(field.status, 'OPEN');
    }
    assert.doesNotMatch(lines.join(''), /value of/);
  });
});
