import type { Account, ProfileField } from '../provider/schemas/account.js';

// Profile fields of an individual account and how their states add up to the account's (docs/provider-contract.md §3.2).

export const PROFILE_FIELDS: Array<{ fieldId: string; fieldType: string; required: boolean }> = [
  { fieldId: 'individualLegalName', fieldType: 'STRING', required: true },
  { fieldId: 'individualDateOfBirth', fieldType: 'STRING', required: true },
  { fieldId: 'individualSsn', fieldType: 'STRING', required: true },
  { fieldId: 'individualResidenceAddress', fieldType: 'STRING', required: true },
  { fieldId: 'individualGovernmentId', fieldType: 'DOCUMENT', required: true },
  { fieldId: 'individualProofOfAddress', fieldType: 'DOCUMENT', required: true },
  // Asked for when needed (ACH form flow, source of funds): they count once they hold something.
  { fieldId: 'individualSourceOfFunds', fieldType: 'PAYMENT_METHOD', required: false },
  { fieldId: 'individualAchAuthorizationForm', fieldType: 'DOCUMENT', required: false },
];

export const fieldDefinition = (fieldId: string) => PROFILE_FIELDS.find((f) => f.fieldId === fieldId);

/** A new field: submitted data is PENDING review; missing data is OPEN (docs/provider-contract.md §3.2). */
export function newField(fieldId: string, fieldType: string, value: unknown): ProfileField {
  const given = value !== undefined && value !== null && value !== '';
  return {
    fieldId,
    fieldType,
    value: given ? value : fieldType === 'DOCUMENT' ? [] : null,
    note: null,
    status: given ? 'PENDING' : 'OPEN',
  };
}

function counts(field: ProfileField): boolean {
  const def = fieldDefinition(field.fieldId);
  const hasValue = Array.isArray(field.value)
    ? field.value.length > 0
    : field.value !== null && field.value !== undefined;
  return def?.required !== false || hasValue || field.note !== null;
}

/** OPEN while any field needs input, PENDING while any is under review, then APPROVED. CLOSED stays. */
export function deriveAccountStatus(account: Account): Account['status'] {
  if (account.status === 'CLOSED') return 'CLOSED';
  const relevant = account.profileFields.filter(counts);
  if (relevant.some((f) => f.status === 'OPEN')) return 'OPEN';
  if (relevant.some((f) => f.status === 'PENDING')) return 'PENDING';
  return 'APPROVED';
}
