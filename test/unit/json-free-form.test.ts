import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stringifyJson } from '../../src/json.js';

// Amounts are written as JSON numbers at their known places only: a free-form object (metadata, a
// user's fields, verification data, a profile field's value) is the caller's data and goes out as given.

describe('stringifyJson leaves free-form data as it is', () => {
  it('a key named amount or fees inside metadata keeps its text; the amounts beside it are numbers', () => {
    const text = stringifyJson({
      amount: '7.5',
      fees: '0.1',
      metadata: { amount: '007.50', fees: { USD: '1.0' }, nested: { totalFees: '2.00' } },
    });
    assert.equal(
      text,
      '{"amount":7.5,"fees":0.1,"metadata":{"amount":"007.50","fees":{"USD":"1.0"},"nested":{"totalFees":"2.00"}}}',
    );
  });

  it('in a list of records, each record is read the same way', () => {
    const text = stringifyJson({ data: [{ amount: '1.50', metadata: { amount: '1.50' } }] });
    assert.equal(text, '{"data":[{"amount":1.5,"metadata":{"amount":"1.50"}}]}');
  });

  it("a user's fields, a wallet's verification data and a profile field's value are free-form too", () => {
    const text = stringifyJson({
      fields: { amount: '010' },
      verificationData: { balances: { USD: '01' } },
      profileFields: [{ fieldId: 'individualSourceOfFunds', value: { amount: '5.0' } }],
    });
    assert.equal(
      text,
      '{"fields":{"amount":"010"},"verificationData":{"balances":{"USD":"01"}},' +
        '"profileFields":[{"fieldId":"individualSourceOfFunds","value":{"amount":"5.0"}}]}',
    );
  });
});
