import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { REVIEWER_NOTES, reviewerNoteKeys } from '../../src/provider/reviewer-notes.js';
import { PROFILE_FIELDS } from '../../src/sandbox/kyc.js';
import { reasonFor } from '../../workflows/kyc/reasons.js';

const ssn = { fieldId: 'individualSsn', fieldType: 'STRING' };
const governmentId = { fieldId: 'individualGovernmentId', fieldType: 'DOCUMENT' };

describe('KYC reasons: a reviewer note becomes something the end user can act on', () => {
  it('a blurry identity image asks for a sharp new photo, as a document', () => {
    assert.deepEqual(reasonFor(governmentId, 'Image is blurry or hard to read'), {
      code: 'identity.blurry',
      message: 'Take a new photo in good light; the text must be sharp',
      provide: 'document',
    });
  });

  it('an invalid SSN asks for the number again, as a value', () => {
    const r = reasonFor(ssn, REVIEWER_NOTES['ssn.invalid'].text);
    assert.equal(r.code, 'ssn.invalid');
    assert.equal(r.provide, 'value');
    assert.match(r.message, /Social Security number again/);
  });

  it('every known note has its own advice, which does not merely repeat the note', () => {
    const messages = new Set<string>();
    for (const key of reviewerNoteKeys) {
      const note = REVIEWER_NOTES[key];
      const type = PROFILE_FIELDS.find((f) => f.fieldId === note.field)!.fieldType;
      const r = reasonFor({ fieldId: note.field, fieldType: type }, note.text);
      assert.equal(r.code, key);
      assert.notEqual(r.message.toLowerCase(), note.text.toLowerCase(), key);
      messages.add(r.message);
    }
    assert.equal(messages.size, reviewerNoteKeys.length, 'no two notes share advice');
  });

  it('matches the provider text despite case, spacing and a closing full stop', () => {
    assert.equal(reasonFor(governmentId, '  image is blurry  or hard to read. ').code, 'identity.blurry');
  });

  it('an unknown note falls back to a generic reason that quotes it', () => {
    const r = reasonFor(governmentId, 'Glare covers the photo');
    assert.equal(r.code, 'reviewer-note');
    assert.equal(r.provide, 'document');
    assert.match(r.message, /"Glare covers the photo"/);
    assert.match(r.message, /government-issued ID/);
  });

  it('an OPEN field without a note asks for what is missing', () => {
    assert.deepEqual(reasonFor({ fieldId: 'individualProofOfAddress', fieldType: 'DOCUMENT' }, null), {
      code: 'missing',
      message: 'Provide your proof of address (a utility bill or bank statement)',
      provide: 'document',
    });
    assert.equal(
      reasonFor({ fieldId: 'individualShoeSize', fieldType: 'STRING' }, '').message,
      'Provide your individualShoeSize',
    );
  });

  it('what to provide follows the field type, not the note', () => {
    // A note written for another field still asks for what this field takes.
    assert.equal(reasonFor(ssn, REVIEWER_NOTES['identity.blurry'].text).provide, 'value');
  });
});
