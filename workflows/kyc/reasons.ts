import type { z } from 'zod';
import type { kycReason } from './messages.schema.js';
import { REVIEWER_NOTES, type ReviewerNoteKey } from '../../src/provider/reviewer-notes.js';

// A reviewer's note on a profile field (docs/provider-contract.md §2.3) as what the end user must do.

/** Why an OPEN profile field needs the end user, and what to hand in (its schema: workflows/kyc/messages.schema.ts). */
export type KycReason = z.output<typeof kycReason>;
/** What the end user hands in: a value (STRING fields) or a file (DOCUMENT fields). */
export type Provide = KycReason['provide'];

// One entry per note, so that a note added to REVIEWER_NOTES fails to compile until it has advice.
const ADVICE: Record<ReviewerNoteKey, string> = {
  'identity.fullColor': 'Send a full-color photo or scan of your ID; black-and-white copies are not accepted',
  'identity.blurry': 'Take a new photo in good light; the text must be sharp',
  'identity.fourCorners': 'Take a new photo with the whole document in the frame; all four corners must show',
  'identity.documentRequired': "Upload a passport, driver's license or another government-issued ID",
  'identity.unsupportedType':
    "This kind of document is not accepted; upload a passport, driver's license or another government-issued ID",
  'identity.expired': 'Your document has expired; upload one that is still valid',
  'address.translationNeeded': 'Upload a translated copy of your proof of address',
  'address.mismatch': 'Upload a utility bill or bank statement that shows the address in your profile',
  'address.matchingBillNeeded': 'Upload a utility bill in your name that shows the address in your profile',
  'address.allPagesNeeded': 'Upload every page of your bank statement, not only the first',
  'ssn.invalid': 'Enter your Social Security number again: nine digits, exactly as on your card',
  'sourceOfFunds.additionalInformation': 'Submit the ACH authorization form requested for your bank account',
  'sourceOfFunds.underReview': 'Nothing to do for now: your payment method is under review',
};

const LABELS: Record<string, string> = {
  individualLegalName: 'legal name',
  individualDateOfBirth: 'date of birth',
  individualSsn: 'Social Security number',
  individualResidenceAddress: 'residence address',
  individualGovernmentId: "government-issued ID (passport or driver's license)",
  individualProofOfAddress: 'proof of address (a utility bill or bank statement)',
  individualSourceOfFunds: 'source of funds',
  individualAchAuthorizationForm: 'ACH authorization form',
};

/** How a person calls the profile field. */
export const fieldLabel = (fieldId: string): string => LABELS[fieldId] ?? fieldId;

// Notes are matched by text, forgiving case, spacing and a closing full stop: the provider's
// wording is what the account record carries.
const normalize = (text: string) =>
  text
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/[.!]+$/, '')
    .toLowerCase();
const byText = new Map<string, ReviewerNoteKey>(
  (Object.keys(REVIEWER_NOTES) as ReviewerNoteKey[]).map((key) => [normalize(REVIEWER_NOTES[key].text), key]),
);

/** The key of a known reviewer note, or undefined. */
export function noteKey(note: string): ReviewerNoteKey | undefined {
  return byText.get(normalize(note));
}

/** What the field's type asks for: only STRING fields take a typed value. */
export const provideFor = (fieldType: string): Provide => (fieldType === 'STRING' ? 'value' : 'document');

/** Why an OPEN profile field needs the end user, and what to hand in. */
export function reasonFor(field: { fieldId: string; fieldType: string }, note: string | null): KycReason {
  const provide = provideFor(field.fieldType);
  const label = fieldLabel(field.fieldId);
  if (note === null || note.trim() === '') {
    return { code: 'missing', message: `Provide your ${label}`, provide };
  }
  const key = noteKey(note);
  if (key) return { code: key, message: ADVICE[key], provide };
  return {
    code: 'reviewer-note',
    message: `The reviewer wrote: "${note.trim()}". Provide your ${label} again with this in mind`,
    provide,
  };
}
